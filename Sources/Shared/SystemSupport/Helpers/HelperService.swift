#if canImport(Glibc)
import Glibc
#endif

/// A helper program's side of ``HelperProcess``: framed requests on standard input, framed
/// answers on standard output, one at a time, until the kernel closes the pipe. The serving
/// loop of `benchbook-cell-parser` and `benchbook-cell-compiler`.
public enum HelperService {
    /// Work done once when no request has come for a while after one was answered (the
    /// compiler gives back the memory it kept for the next compile).
    public struct IdleWork: Sendable {
        /// Milliseconds without a request before ``run`` is called.
        public var milliseconds: Int32
        /// The work.
        public var run: @Sendable () -> Void

        /// Creates idle work.
        /// - Parameters:
        ///   - milliseconds: the quiet time before it runs; 0 never runs it.
        ///   - run: the work.
        public init(milliseconds: Int32, run: @escaping @Sendable () -> Void) {
            self.milliseconds = milliseconds
            self.run = run
        }
    }

    /// Answers requests until standard input closes (then exits 0); exits 1 when an answer
    /// cannot be written (the kernel is gone) or the request stream is broken.
    /// - Parameters:
    ///   - idle: work to do after a quiet time, once per answered request.
    ///   - answer: the answer to one request's payload.
    public static func serve(idle: IdleWork? = nil, answer: ([UInt8]) -> [UInt8]) -> Never {
        let input = FileDescriptor(rawValue: 0), output = FileDescriptor(rawValue: 1)
        var answeredSinceIdleWork = false
        while true {
            if answeredSinceIdleWork, let idle, idle.milliseconds > 0 {
                if (try? FileDescriptor.poll([input], timeout: idle.milliseconds))?.isEmpty == true {
                    idle.run()
                    answeredSinceIdleWork = false
                }
            }
            let request: [UInt8]?
            do { request = try Framing.readFrame(from: input) } catch { exit(1) }
            guard let request else { exit(0) }
            guard (try? output.write(all: Framing.frame(answer(request)))) != nil else { exit(1) }
            answeredSinceIdleWork = true
        }
    }
}
