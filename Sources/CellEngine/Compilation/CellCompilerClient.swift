import CellSource
import Foundation
import HostProtocol
import Synchronization
import SystemSupport

/// The kernel's side of the cell compiler process (`benchbook-cell-compiler`), which keeps
/// the Swift compiler loaded (as the toolchain's in-process SourceKit) so a cell's compile
/// does not pay for starting swift-frontend and loading the library's modules each time.
///
/// The process starts with ``warmUp(compiling:)`` or on the first cell and is kept. A cell
/// interrupted while compiling kills it (through the cell's ``CellCancellation``); one
/// that is killed or crashes is started again for the next cell. When the process cannot
/// compile here at all (no SourceKit in the toolchain), ``compile(_:cancellation:)``
/// answers ``Outcome/unavailable(_:)`` from then on and the engine runs swift-frontend.
/// `BENCHBOOK_COMPILE_SERVER=0` turns it off, to measure what it saves.
///
/// Thread rules: every method may be called from any thread; requests are served one at a
/// time (a warm-up and the first cell may race; the cell waits for the warm-up).
final class CellCompilerClient: Sendable {
    /// What a compile came to.
    enum Outcome: Sendable, Equatable {
        case succeeded
        /// The compiler's errors, as swift-frontend prints them.
        case failed(String)
        /// The cell was interrupted while compiling; the process was killed.
        case interrupted
        /// This process cannot compile the cell; use swift-frontend (the reason is traced).
        case unavailable(String)
    }

    /// The compiler's memory cap (as for a swift-frontend step).
    static let limits = ResourceLimits(addressSpaceBytes: 16 << 30)
    static let isEnabled = ProcessInfo.processInfo.environment["BENCHBOOK_COMPILE_SERVER"] != "0"

    private struct Connection {
        let process: ChildProcess
        let input: FileDescriptor
        let output: FileDescriptor

        func close() {
            input.close()
            output.close()
        }
    }

    private struct State {
        var connection: Connection?
        /// Set once the process said it cannot compile here, or cannot be started.
        var unavailable: String?
    }

    private let executable: URL
    private let sourceKit: URL
    private let state = Mutex(State())
    /// Held for the length of one request (Mutex is not reentrant; this one is a plain lock).
    private let serving = NSLock()

    /// Creates a client; nothing starts until the first request.
    /// - Parameters:
    ///   - executable: `benchbook-cell-compiler`.
    ///   - sourceKit: the toolchain's `libsourcekitdInProc.so`.
    init(executable: URL, sourceKit: URL) {
        self.executable = executable
        self.sourceKit = sourceKit
        if !Self.isEnabled { state.withLock { $0.unavailable = "BENCHBOOK_COMPILE_SERVER=0" } }
    }

    deinit { stop() }

    /// Starts the process and has it compile `arguments` once (loading the compiler and
    /// the library's modules), so the first cell does not pay for it.
    /// - Parameter arguments: swift-frontend's arguments for a small source that imports the
    ///   notebook library.
    func warmUp(compiling arguments: [String]) {
        _ = compile(arguments, cancellation: CellCancellation())
    }

    /// Compiles with swift-frontend's arguments (without `-frontend`).
    /// - Parameters:
    ///   - arguments: what swift-frontend would be given.
    ///   - cancellation: the cell's; cancelling it kills the process.
    func compile(_ arguments: [String], cancellation: CellCancellation) -> Outcome {
        serving.lock()
        defer { serving.unlock() }
        if let reason = state.withLock({ $0.unavailable }) { return .unavailable(reason) }
        if cancellation.isCancelled { return .interrupted }
        let connection: Connection
        do {
            connection = try running()
        } catch {
            state.withLock { $0.unavailable = "the cell compiler could not be started: \(error)" }
            return .unavailable("the cell compiler could not be started: \(error)")
        }
        cancellation.track(connection.process)
        defer { cancellation.untrack() }
        let response: CompileResponse
        do {
            let body = try JSONEncoder().encode(CompileRequest(arguments: arguments))
            try connection.input.write(all: Framing.frame(body))
            guard let payload = try Framing.readFrame(from: connection.output) else { throw SystemError("end of file") }
            response = try JSONDecoder().decode(CompileResponse.self, from: Data(payload))
        } catch {
            let status = restart()
            if cancellation.isCancelled { return .interrupted }
            return .unavailable("the cell compiler stopped (\(status.map { "\($0)" } ?? "\(error)"))")
        }
        switch response {
        case .succeeded: return .succeeded
        case .failed(let diagnostics): return .failed(diagnostics)
        case .unavailable(let reason):
            state.withLock { $0.unavailable = reason }
            stop()
            return .unavailable(reason)
        }
    }

    /// Stops the process.
    func stop() { _ = restart() }

    /// The running process, started when there is none.
    private func running() throws(SystemError) -> Connection {
        if let connection = state.withLock({ $0.connection }) { return connection }
        let started = try ChildProcess.connected(.init(executable: executable.path, arguments: [sourceKit.path],
                                                       limits: Self.limits))
        let connection = Connection(process: started.process, input: started.input, output: started.output)
        state.withLock { $0.connection = connection }
        return connection
    }

    /// Kills and drops the process (one that stopped answering, or at shutdown); the next
    /// request starts another.
    /// - Returns: how it ended, or nil when none was running.
    private func restart() -> ExitStatus? {
        let connection = state.withLock { state -> Connection? in
            defer { state.connection = nil }
            return state.connection
        }
        guard let connection else { return nil }
        let status = connection.process.kill()
        connection.close()
        return status
    }
}
