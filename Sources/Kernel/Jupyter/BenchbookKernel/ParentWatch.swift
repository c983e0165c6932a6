import Foundation
import SystemSupport

/// Notices that the process that started the kernel is gone, as ipykernel does.
///
/// jupyter_client puts its own pid in `JPY_PARENT_PID` when it launches a kernel. When
/// that process ends without shutting the kernel down (a Jupyter server killed, a
/// JupyterHub single-user server stopped), the project's one parent-death watch
/// (``CurrentProcess/whenParentExits(_:descriptorsFrom:_:)``, a thread waiting on a pidfd of the parent)
/// notices at once, and the kernel then ends itself and its children (see ``Termination``)
/// instead of living on as an orphan.
///
/// Which parent is watched: `JPY_PARENT_PID` when it is the real parent; when a launcher
/// sits in between, the parent the kernel had at start, as long as that is not init.
/// Unlike ipykernel, a change to any other parent counts too (a subreaper such as
/// `systemd --user` adopts orphans instead of init).
public struct ParentWatch: Sendable {
    /// The pid whose disappearance ends the kernel.
    public let parent: Int32

    /// The watch for this process, or nil when there is nothing to watch:
    /// `JPY_PARENT_PID` is unset or not a pid, or the parent is already init.
    /// - Parameters:
    ///   - environment: the process environment (reads `JPY_PARENT_PID`).
    ///   - currentParent: the parent's id now.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment, currentParent: Int32 = CurrentProcess.parentID) {
        guard let text = environment["JPY_PARENT_PID"], let announced = Int32(text), announced > 0 else { return nil }
        let watched = announced == currentParent ? announced : currentParent
        guard watched > 1 else { return nil }
        parent = watched
    }

    /// True while the kernel's parent is still the watched process.
    public var parentIsAlive: Bool { CurrentProcess.parentID == parent }

    /// Watches on a thread of its own and calls `onParentExit` once, when the parent is gone
    /// (at once when it is gone already). A watch that cannot start is logged as a warning:
    /// the kernel then serves without it.
    /// - Parameter onParentExit: what to do then (normally ``Termination/end(status:reason:)``).
    public func start(onParentExit: @escaping @Sendable () -> Void) {
        do {
            try CurrentProcess.whenParentExits(parent, onParentExit)
        } catch {
            Log.warning("the kernel will not notice when the process that started it (\(parent)) is gone: \(error)")
        }
    }
}
