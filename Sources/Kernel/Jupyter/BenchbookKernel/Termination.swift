import CellEngine
import Foundation
import SystemSupport

/// How the kernel ends on its own, when it is sent SIGTERM or its parent is gone: stop
/// the cell host and cancel a compile, send SIGTERM to the rest of its process group (a
/// compiler's children, the language server), SIGKILL whatever is still below it (what
/// cells started in sessions of their own, which no group signal reaches: the kernel, as
/// subreaper, is their ancestor), remove the cell directory, exit. A
/// shutdown request ends the kernel the same way, after its reply; a plain `exit` still
/// removes the directory (see ``WorkDirectory/removeAtExit()``).
///
/// The process group is signalled only when the kernel leads it, as it does when
/// jupyter_client starts it (a new session), so that everything in the group was started
/// by the kernel.
///
/// Thread rules: `install` once, before `end` can run; `end` may be called from any
/// thread, and only the first call does anything.
public enum Termination {
    private struct Resources: @unchecked Sendable {
        var engine: CellEngine
        var workDirectory: WorkDirectory
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var resources: Resources?
    nonisolated(unsafe) private static var ending = false

    /// Registers what to stop and remove, and ends the kernel on SIGTERM (status 0).
    /// - Parameters:
    ///   - engine: the cell engine (its host and compiler are stopped).
    ///   - workDirectory: the kernel's cell directory (removed).
    public static func install(engine: CellEngine, workDirectory: WorkDirectory) {
        lock.lock()
        resources = Resources(engine: engine, workDirectory: workDirectory)
        lock.unlock()
        CurrentProcess.handle(SIGTERM) { end(status: 0, reason: "SIGTERM") }
    }

    /// Stops what the kernel started, removes its files and exits.
    /// - Parameters:
    ///   - status: the exit status.
    ///   - reason: why, for the log.
    public static func end(status: Int32, reason: String) -> Never {
        lock.lock()
        let first = !ending
        ending = true
        let resources = Termination.resources
        lock.unlock()
        guard first else { CurrentProcess.waitForever() }
        Log.info("stopping: \(reason)")
        resources?.engine.interrupt()
        resources?.engine.shutdown()
        if CurrentProcess.leadsProcessGroup {
            CurrentProcess.signalOwnGroup(SIGTERM)
            Thread.sleep(forTimeInterval: 0.2)
        }
        // Whatever is left below the kernel, whatever its group or session: processes a cell
        // started with setsid() or a double fork, which no group signal reaches.
        ProcessTree.endAll(below: getpid())
        resources?.workDirectory.remove()
        CurrentProcess.exitNow(status: status)
    }
}
