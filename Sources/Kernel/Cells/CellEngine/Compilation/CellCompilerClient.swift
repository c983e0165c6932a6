import BenchbookSettings
import CellSource
import Foundation
import HelperProtocol
import SystemSupport

/// The kernel's side of the cell compiler process (`benchbook-cell-compiler`), which keeps
/// the Swift compiler loaded (as the toolchain's in-process SourceKit) so a cell's compile
/// does not pay for starting swift-frontend and loading the library's modules each time.
///
/// The process is a ``HelperProcess``: it starts with ``warmUp(compiling:)`` or on the
/// first cell and is kept. A cell interrupted while compiling kills it (through the cell's
/// ``CellCancellation``); one that is killed or crashes is started again for the next
/// cell. When the process cannot be started, or says it cannot compile here (no SourceKit
/// in the toolchain), ``compile(_:cancellation:)`` answers ``Outcome/unavailable(_:)``
/// and the engine runs swift-frontend; the process is tried again after its
/// ``RestartPolicy`` delay (one second, doubling to a minute).
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
    static let isEnabled = KernelSettings.current.compileServer

    private let helper: HelperProcess?

    /// Creates a client; nothing starts until the first request.
    /// - Parameters:
    ///   - executable: `benchbook-cell-compiler`.
    ///   - sourceKit: the toolchain's `libsourcekitdInProc.so`.
    init(executable: URL, sourceKit: URL) {
        helper = Self.isEnabled
            ? HelperProcess(name: "the cell compiler", configuration: .init(executable: executable.path, arguments: [sourceKit.path],
                                                                            limits: Self.limits))
            : nil
    }

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
        guard let helper else { return .unavailable("BENCHBOOK_COMPILE_SERVER=0") }
        if cancellation.isCancelled { return .interrupted }
        let answer: [UInt8]
        do throws(HelperProcess.ExchangeError) {
            answer = try helper.exchange(CompileRequest(arguments: arguments).payload, tracker: cancellation)
        } catch {
            if cancellation.isCancelled { return .interrupted }
            switch error {
            case .unavailable(let reason): return .unavailable(reason.description)
            case .timedOut(let status), .ended(let status): return .unavailable("the cell compiler stopped (\(status))")
            }
        }
        switch try? CompileResponse(payload: answer) {
        case .succeeded?: return .succeeded
        case .failed(let diagnostics)?: return .failed(diagnostics)
        case .unavailable(let reason)?: return .unavailable(helper.fail(reason).description)
        case nil: return .unavailable("the cell compiler stopped (\(helper.stop().map { "\($0)" } ?? "an unreadable answer"))")
        }
    }

    /// Stops the process.
    func stop() { helper?.stop() }
}
