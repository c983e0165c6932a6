#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// What a finished reporting child produced.
    public struct Report: Sendable {
        /// How the child ended.
        public var status: ExitStatus
        /// What it wrote to its report descriptor (fd 3 by default).
        public var report: [UInt8]
        /// Its standard output and error, interleaved as written (diagnostics, runtime logs).
        public var output: [UInt8]
        /// True when `shouldStop` asked for it to be killed before it finished.
        public var stopped: Bool

        /// The output as text.
        public var outputText: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs a program that writes its result to an inherited pipe, not to its standard output,
    /// so whatever the program or the libraries it loads print never mixes with the result.
    ///
    /// The program gets a pipe's write end as descriptor `reportDescriptor`, and another pipe
    /// on standard output and error; both are read as they fill (so neither can block the child)
    /// until both close, then the child is reaped.
    /// - Parameters:
    ///   - configuration: the program; its descriptors 1, 2 and `reportDescriptor` are replaced.
    ///   - reportDescriptor: the descriptor number the child writes its result to (3).
    ///   - shouldStop: asked about every 100 ms while the child runs; true kills it (and its
    ///     group), for example on a kernel interrupt.
    /// - Returns: how it ended, its report and its output.
    /// - Throws: ``SystemError`` when it cannot be started or a pipe fails.
    public static func runReporting(_ configuration: Configuration, reportDescriptor: Int32 = 3,
                                    shouldStop: () -> Bool = { false }) throws(SystemError) -> Report {
        var configuration = configuration
        let report = try FileDescriptor.pipe()
        let output: (read: FileDescriptor, write: FileDescriptor)
        do { output = try FileDescriptor.pipe() } catch {
            report.read.close()
            report.write.close()
            throw error
        }
        configuration.descriptors[reportDescriptor] = report.write
        configuration.descriptors[1] = output.write
        configuration.descriptors[2] = output.write
        let process: ChildProcess
        do { process = try ChildProcess(configuration) } catch {
            [report.read, report.write, output.read, output.write].forEach { $0.close() }
            throw error
        }
        report.write.close()
        output.write.close()
        defer {
            report.read.close()
            output.read.close()
        }
        var collected: [FileDescriptor: [UInt8]] = [report.read: [], output.read: []]
        var open = [report.read, output.read]
        var stopped = false
        while !open.isEmpty {
            if !stopped && shouldStop() {
                stopped = true
                process.signalGroup(SIGKILL)
            }
            for descriptor in try FileDescriptor.poll(open, timeout: 100) {
                switch try descriptor.read() {
                case .bytes(let bytes): collected[descriptor, default: []] += bytes
                case .endOfFile: open.removeAll { $0 == descriptor }
                case .wouldBlock: break
                }
            }
        }
        return Report(status: process.waitForExit(), report: collected[report.read] ?? [],
                      output: collected[output.read] ?? [], stopped: stopped)
    }
}
