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

extension ChildProcess {
    /// A child spoken to through its standard input and output.
    public struct Connection: Sendable {
        /// The running child.
        public let process: ChildProcess
        /// Writes to the child's standard input.
        public let input: FileDescriptor
        /// Reads the child's standard output.
        public let output: FileDescriptor
    }

    /// Starts a program with pipes on its standard input and output (a server the caller
    /// talks to: the cell parser, SourceKit-LSP). The caller closes both descriptors.
    /// - Parameter configuration: the program; its descriptors 0 and 1 are replaced.
    /// - Throws: ``SystemError`` when it cannot be started.
    public static func connected(_ configuration: Configuration) throws(SystemError) -> Connection {
        var configuration = configuration
        let toChild = try FileDescriptor.pipe()
        let fromChild: (read: FileDescriptor, write: FileDescriptor)
        do { fromChild = try FileDescriptor.pipe() } catch {
            toChild.read.close()
            toChild.write.close()
            throw error
        }
        configuration.descriptors[0] = toChild.read
        configuration.descriptors[1] = fromChild.write
        let process: ChildProcess
        do { process = try ChildProcess(configuration) } catch {
            [toChild.read, toChild.write, fromChild.read, fromChild.write].forEach { $0.close() }
            throw error
        }
        toChild.read.close()
        fromChild.write.close()
        return Connection(process: process, input: toChild.write, output: fromChild.read)
    }
}
