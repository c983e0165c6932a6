public import JSONCore

/// Comm targets: what code in the notebook offers to the front end's `comm_open`.
///
/// When messages run: the kernel handles the front end's comm messages one at a time on
/// its shell channel, so a message that arrives while a cell runs waits in the queue and
/// is delivered after the cell ends (as ipykernel does). Each delivery runs on a fresh
/// thread of the cell host (with a cell's stack), then the host takes a snapshot, as after
/// a cell, so a crash later restores the widgets' state as the user last saw it.
///
/// Errors: a handler that throws is reported (standard error of the request that carried
/// the message) and the kernel goes on; a handler that traps ends the cell host, and the
/// kernel restores the snapshot taken before the message.
public enum CommTargets {
    /// Registers (or replaces) the handler of comms the front end opens to `targetName`.
    /// - Parameters:
    ///   - targetName: the target's name.
    ///   - handler: called with the new comm and the open message. If it throws, the comm
    ///     is closed and the error reported.
    public static func register(_ targetName: String, handler: @escaping (Comm, CommMessage) throws -> Void) {
        CommRouter.shared.registerTarget(targetName, handler)
    }

    /// Removes a target; later opens to it are answered with `comm_close`.
    public static func unregister(_ targetName: String) {
        CommRouter.shared.unregisterTarget(targetName)
    }

    /// Reports an error a callback threw, as the comm layer reports its own: on the
    /// standard error of the request being handled, naming what was going on.
    /// - Parameters:
    ///   - error: what the callback threw.
    ///   - activity: what was happening, for example "running the observer of Threshold".
    public static func report(_ error: Error, while activity: String) {
        CommRouter.shared.report(error, while: activity)
    }

    /// The `msg_id` of the front end's request whose comm callbacks are running now, or
    /// nil (in a cell, or between messages). Output a callback produces belongs to that
    /// request; an Output widget that captures by `msg_id` uses it.
    public static var requestBeingHandled: String? { CommRouter.shared.requestBeingHandled }

    /// The comms open now, by id, with their target names.
    public static var openComms: [String: String] { CommRouter.shared.openComms }
}
