import SystemSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Stops the helper process working on one cell (the parser, the compiler, the linker).
///
/// Made for one cell and dropped with it, so cancelling it can never touch the next cell.
/// Thread rules: ``cancel()`` from any thread; ``track(_:)`` and ``untrack()`` from the
/// thread doing the cell's work.
final class CellCancellation: ProcessTracker {
    private struct State {
        var cancelled = false
        var current: ChildProcess?
    }
    private let state = Mutex(State())

    /// True once ``cancel()`` was called.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Kills the tracked process, and any tracked later.
    func cancel() {
        let process = state.withLock { state -> ChildProcess? in
            state.cancelled = true
            return state.current
        }
        process?.signal(SIGKILL)
    }

    /// Makes `process` the one ``cancel()`` kills (killed at once when already cancelled).
    func track(_ process: ChildProcess) {
        let cancelled = state.withLock { state -> Bool in
            state.current = process
            return state.cancelled
        }
        if cancelled { process.signal(SIGKILL) }
    }

    /// Forgets the tracked process (it has been reaped).
    func untrack() { state.withLock { $0.current = nil } }
}
