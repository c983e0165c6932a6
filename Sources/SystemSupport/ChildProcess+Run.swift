#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// What a finished tool run produced.
    public struct Completion: Sendable {
        /// How the tool ended.
        public var status: ExitStatus
        /// Its standard output and error, interleaved as written.
        public var output: [UInt8]

        /// The output as text.
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs a tool to completion, collecting its standard output and error together.
    /// - Parameters:
    ///   - configuration: the tool; its descriptors 1 and 2 are replaced by the collecting pipe.
    ///   - started: called with the running process before the wait, so the caller can
    ///     signal it from another thread (to cancel it).
    /// - Returns: how it ended and what it wrote.
    /// - Throws: ``SystemError`` when it cannot be started.
    public static func run(_ configuration: Configuration,
                           started: (ChildProcess) -> Void = { _ in }) throws(SystemError) -> Completion {
        var configuration = configuration
        let pipe = try FileDescriptor.pipe()
        configuration.descriptors[1] = pipe.write
        configuration.descriptors[2] = pipe.write
        let process: ChildProcess
        do {
            process = try ChildProcess(configuration)
        } catch {
            pipe.read.close()
            pipe.write.close()
            throw error
        }
        pipe.write.close()
        started(process)
        defer { pipe.read.close() }
        let output = (try? pipe.read.readToEnd()) ?? []
        return Completion(status: process.waitForExit(), output: output)
    }
}
