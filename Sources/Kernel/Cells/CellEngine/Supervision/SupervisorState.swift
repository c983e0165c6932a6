import HostProtocol
import SystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Identifies one execution of a cell.
public struct CellID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: CellID, rhs: CellID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "cell \(rawValue)" }
}

/// Identifies one cell host process (a restart makes a new one).
struct HostID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: Int
    var description: String { "host \(rawValue)" }
}

/// How a cell's run ended, as the supervisor saw it.
enum RunEnd: Sendable, Equatable {
    /// The host answered the run command.
    case returned(HostEvent.RunOutcome)
    /// The host died while the cell ran; `afterInterrupt` when the supervisor killed it
    /// because the cell did not stop within the grace period. No snapshot could replace
    /// it: a fresh host took its place and earlier values are gone.
    case hostExited(ExitStatus, afterInterrupt: Bool)
    /// The host died while the cell ran (as for ``hostExited(_:afterInterrupt:)``), and
    /// its snapshot after execution `restoredAfter` is the host now: every value earlier
    /// cells made is there, nothing of this cell is.
    case hostRestored(ExitStatus, afterInterrupt: Bool, restoredAfter: Int)
    /// An interrupt arrived before the cell started to run: nothing ran.
    case interruptedBeforeRun
    /// There is no host to run it (it could not start, or the kernel is shutting down).
    case hostUnavailable(String)
}

/// What the supervisor must do after a transition. Performed in order, under its lock.
enum SupervisorAction: Sendable, Equatable {
    /// Start host `id`; `reload` loads earlier cells' libraries first. Answer with
    /// ``SupervisorState/hostSynced(_:)`` or ``SupervisorState/hostSpawnFailed(_:reason:)``.
    case spawnHost(HostID, reload: Bool)
    /// SIGKILL the host (and what its cells started); it reports its exit later.
    case killHost(HostID)
    /// Send a signal (SIGINT for an interrupt).
    case signalHost(HostID, Int32)
    /// Send the compiled cell's run command to the host.
    case sendRun(CellID, HostID)
    /// Stop the running compile step of a cell (its helper process is killed).
    case cancelCompile(CellID)
    /// End a cell's wait for keyboard input (the kernel answers the host "interrupted").
    case stopInputWait(CellID)
    /// Call ``SupervisorState/graceExpired(_:)`` for the cell after the grace period.
    case startGraceTimer(CellID)
    /// Hand the waiting shell thread the end of its cell's run.
    case finishRun(CellID, RunEnd)
    /// A host died while no cell of it was running: its values are gone.
    case reportHostLoss(ExitStatus)
    /// A host died while no cell of it was running, and its snapshot after execution
    /// `afterCell` took its place: nothing was lost.
    case reportHostRestored(ExitStatus, afterCell: Int)
    /// Make the newest snapshot host `id`: send it its pipes, load the libraries of cells
    /// after its execution, sync. Answer with ``SupervisorState/hostSynced(_:)``, or
    /// ``SupervisorState/restoreFailed(_:)`` when it cannot be sent its pipes.
    case promoteSnapshot(HostID)
    /// Call ``SupervisorState/restoreTimedOut(_:)`` for the host if it has not synced in time.
    case startRestoreTimer(HostID)
}

/// The life of the cell host and of the cell being executed, as an explicit state machine
/// (after swift-nio's): every event is a mutating method that moves to the next state and
/// returns what to do. Two kinds of unexpected event: one about a host or a cell that has
/// been replaced meanwhile (a late exit, sync or answer: threads race) is expected and does
/// nothing; one the kernel's own code must never send (a cell begun while another is in
/// progress, a compile ended that is not the one compiling) is a programming error, which
/// traps in a debug build and in a release build is logged and refused (see
/// ``impossible(_:)``). It holds no process and no clock, so tests drive it with any
/// ordering of events.
///
/// Two parts, because a cell compiles while a host starts:
/// - the host: stopped → starting → ready; ready → stopping (killed) → reloading (a new
///   host loads earlier cells' libraries) → ready. A host that dies restarts the same way.
/// - the cell: idle → compiling → (waiting for the host →) running → idle, or running →
///   interrupting → idle (it stopped, or its host was killed after the grace period).
///
/// An interrupt belongs to exactly one cell: the cell that is compiling or running when it
/// arrives; one that arrives between cells is dropped. No clock decides it: the kernel
/// serves every control request that arrived before a cell begins first (see the kernel's
/// `ControlFence`), so an interrupt the client sent for an earlier cell never reaches a
/// later one, whatever the client's clock says. A grace timer names its cell and does
/// nothing once that cell has ended.
struct SupervisorState: Sendable {
    enum HostPhase: Sendable, Equatable {
        case stopped
        /// Spawned; the notebook library is loading.
        case starting(HostID)
        /// Spawned to replace a host that died or was killed; earlier cells' libraries load.
        case reloading(HostID)
        case ready(HostID)
        /// Killed; its exit has not been seen yet.
        case stopping(HostID)
        /// A snapshot of a host that died is becoming host `id` (libraries of later cells
        /// load); a fresh host replaces it if it fails.
        case restoring(HostID)
    }

    /// A snapshot a host announced: the state after one execution.
    struct SnapshotMark: Sendable, Equatable {
        /// The host that made it.
        let host: HostID
        /// The execution it holds the state after (0: none).
        let afterCell: Int
    }

    /// Why a snapshot is being promoted: what to report once it is the host (or is not).
    struct Recovery: Sendable, Equatable {
        /// How the host it replaces ended.
        let status: ExitStatus
        /// The supervisor killed that host after an interrupt's grace period.
        let afterInterrupt: Bool
        /// The cell that was running, whose end waits for the outcome; nil between cells.
        let cell: Cell?
        /// The snapshot being promoted.
        let snapshot: SnapshotMark
    }

    /// One execution of a cell.
    struct Cell: Sendable, Equatable {
        let id: CellID
        /// An interrupt arrived while it compiled: it must not run.
        var interrupted = false
    }

    enum CellPhase: Sendable, Equatable {
        case idle
        case compiling(Cell)
        /// Compiled; the host is starting or reloading.
        case waitingForHost(Cell)
        case running(Cell, on: HostID)
        /// Running, SIGINT sent; the grace timer is set.
        case interrupting(Cell, on: HostID)
        /// Its host died; a snapshot is being promoted, and its end waits for the outcome.
        case recovering(Cell)
    }

    private(set) var host: HostPhase = .stopped
    private(set) var cell: CellPhase = .idle
    /// True after ``shutdown()``: no host is started again.
    private(set) var isShutDown = false
    private var nextHostNumber = 1
    /// The cell whose grace period ran out, when the current host is stopping for it.
    private var killedForCell: CellID?
    /// The newest snapshot of the current host, the one a crash would promote.
    private(set) var snapshot: SnapshotMark?
    /// What the promotion in progress (host phase ``HostPhase/restoring(_:)``) is for.
    private(set) var recovery: Recovery?

    // MARK: Host events

    /// The kernel wants a host (at start, or for the first cell).
    mutating func start() -> [SupervisorAction] {
        guard host == .stopped, !isShutDown else { return [] }
        let id = newHostID()
        host = .starting(id)
        return [.spawnHost(id, reload: false)]
    }

    /// Host `id` answered its first sync: libraries are loaded, it takes commands.
    mutating func hostSynced(_ id: HostID) -> [SupervisorAction] {
        guard host == .starting(id) || host == .reloading(id) || host == .restoring(id) else { return [] }
        var actions: [SupervisorAction] = []
        if host == .restoring(id), let recovered = recovery {
            recovery = nil
            if let stopped = recovered.cell {
                cell = .idle
                actions.append(.finishRun(stopped.id, .hostRestored(
                    recovered.status, afterInterrupt: recovered.afterInterrupt,
                    restoredAfter: recovered.snapshot.afterCell)))
            } else {
                actions.append(.reportHostRestored(recovered.status, afterCell: recovered.snapshot.afterCell))
            }
        }
        host = .ready(id)
        guard case .waitingForHost(let waiting) = cell else { return actions }
        cell = .running(waiting, on: id)
        return actions + [.sendRun(waiting.id, id)]
    }

    /// Host `id` (or a host it replaced) left a snapshot after execution `afterCell`.
    /// - Returns: true when it is now the newest snapshot (the supervisor keeps it and
    ///   releases the one before); false when it comes from a host already replaced.
    mutating func snapshotTaken(by id: HostID, afterCell: Int) -> Bool {
        switch host {
        case .starting(id), .reloading(id), .ready(id), .restoring(id):
            snapshot = SnapshotMark(host: id, afterCell: afterCell)
            return true
        default:
            return false
        }
    }

    /// The snapshot being promoted to host `id` could not be sent its pipes (it is gone).
    mutating func restoreFailed(_ id: HostID) -> [SupervisorAction] {
        guard host == .restoring(id), let failed = recovery else { return [] }
        recovery = nil
        var actions: [SupervisorAction] = []
        if let stopped = failed.cell {
            cell = .idle
            actions.append(.finishRun(stopped.id, .hostExited(failed.status, afterInterrupt: failed.afterInterrupt)))
        } else {
            actions.append(.reportHostLoss(failed.status))
        }
        if isShutDown {
            host = .stopped
            return actions
        }
        let replacement = newHostID()
        host = .reloading(replacement)
        return actions + [.spawnHost(replacement, reload: true)]
    }

    /// Host `id`, a promoted snapshot, did not sync within the restore timeout: it is
    /// killed, and its exit starts a fresh host.
    mutating func restoreTimedOut(_ id: HostID) -> [SupervisorAction] {
        guard host == .restoring(id) else { return [] }
        return [.killHost(id)]
    }

    /// Host `id` could not be started.
    mutating func hostSpawnFailed(_ id: HostID, reason: String) -> [SupervisorAction] {
        guard host == .starting(id) || host == .reloading(id) else { return [] }
        host = .stopped
        guard case .waitingForHost(let waiting) = cell else { return [] }
        cell = .idle
        return [.finishRun(waiting.id, .hostUnavailable(reason))]
    }

    /// Host `id` exited (it crashed, a cell ended it, or it was killed).
    mutating func hostExited(_ id: HostID, status: ExitStatus) -> [SupervisorAction] {
        let wasStarting: Bool
        switch host {
        case .restoring(id):
            // The promoted snapshot died before it synced: start afresh.
            return restoreFailed(id)
        case .starting(id), .reloading(id): wasStarting = true
        case .ready(id), .stopping(id): wasStarting = false
        default: return []  // A host already replaced.
        }
        let newest = snapshot
        snapshot = nil
        let killedFor = killedForCell
        killedForCell = nil
        if !wasStarting, !isShutDown, let newest, newest.host == id {
            let replacement = newHostID()
            host = .restoring(replacement)
            var stopped: Cell?
            switch cell {
            case .running(let running, on: id), .interrupting(let running, on: id):
                stopped = running
                cell = .recovering(running)
            default:
                break
            }
            recovery = Recovery(status: status, afterInterrupt: stopped.map { killedFor == $0.id } ?? false,
                                cell: stopped, snapshot: newest)
            return [.promoteSnapshot(replacement), .startRestoreTimer(replacement)]
        }
        var actions: [SupervisorAction] = []
        switch cell {
        case .running(let running, on: id), .interrupting(let running, on: id):
            cell = .idle
            actions.append(.finishRun(running.id, .hostExited(status, afterInterrupt: killedFor == running.id)))
        default:
            if !wasStarting, !isShutDown { actions.append(.reportHostLoss(status)) }
        }
        if isShutDown {
            host = .stopped
            return actions
        }
        if wasStarting {
            // A host that dies before it is ready would die again: stop, and let the next
            // cell try once more.
            host = .stopped
            if case .waitingForHost(let waiting) = cell {
                cell = .idle
                actions.append(.finishRun(waiting.id, .hostUnavailable("the cell host stopped while starting (\(status))")))
            }
            return actions
        }
        let replacement = newHostID()
        host = .reloading(replacement)
        actions.append(.spawnHost(replacement, reload: true))
        return actions
    }

    // MARK: Cell events

    /// A cell starts compiling. Starts a host when there is none.
    mutating func beginCompile(_ id: CellID) -> [SupervisorAction] {
        guard cell == .idle else {
            Self.impossible("\(id) began while \(cell) was in progress")
            return [.finishRun(id, .hostUnavailable("the kernel was still busy with another cell; run this cell again"))]
        }
        cell = .compiling(Cell(id: id))
        return start()
    }

    /// The cell's compile ended; `succeeded` when a library is ready to run.
    mutating func endCompile(_ id: CellID, succeeded: Bool) -> [SupervisorAction] {
        guard case .compiling(let compiling) = cell, compiling.id == id else {
            Self.impossible("the compile of \(id) ended while \(cell)")
            return []
        }
        if compiling.interrupted {
            cell = .idle
            return [.finishRun(id, .interruptedBeforeRun)]
        }
        guard succeeded else {
            cell = .idle
            return []
        }
        if case .ready(let ready) = host {
            cell = .running(compiling, on: ready)
            return [.sendRun(id, ready)]
        }
        cell = .waitingForHost(compiling)
        if isShutDown {
            cell = .idle
            return [.finishRun(id, .hostUnavailable("the kernel is shutting down"))]
        }
        return start()
    }

    /// The host answered the cell's run command.
    mutating func runReturned(_ id: CellID, on hostID: HostID, outcome: HostEvent.RunOutcome) -> [SupervisorAction] {
        switch cell {
        case .running(let running, on: hostID) where running.id == id,
             .interrupting(let running, on: hostID) where running.id == id:
            cell = .idle
            return [.finishRun(id, .returned(outcome))]
        default:
            return []  // An answer from a host that has been replaced.
        }
    }

    /// The user interrupted. Applies to the compiling or running cell.
    mutating func interrupt() -> [SupervisorAction] {
        switch cell {
        case .idle, .recovering:
            return []
        case .compiling(var compiling):
            compiling.interrupted = true
            cell = .compiling(compiling)
            return [.cancelCompile(compiling.id)]
        case .waitingForHost(let waiting):
            cell = .idle
            return [.finishRun(waiting.id, .interruptedBeforeRun)]
        case .running(let running, let hostID):
            cell = .interrupting(running, on: hostID)
            return [.signalHost(hostID, SIGINT), .stopInputWait(running.id), .startGraceTimer(running.id)]
        case .interrupting(let running, let hostID):
            return [.signalHost(hostID, SIGINT), .stopInputWait(running.id)]
        }
    }

    /// The grace period after the interrupt of cell `id` ran out.
    mutating func graceExpired(_ id: CellID) -> [SupervisorAction] {
        guard case .interrupting(let running, let hostID) = cell, running.id == id, host == .ready(hostID) else {
            return []  // The cell stopped in time (or its host is gone already).
        }
        host = .stopping(hostID)
        killedForCell = id
        return [.killHost(hostID)]
    }

    /// The kernel is shutting down: stop the host, end any waiting cell.
    mutating func shutdown() -> [SupervisorAction] {
        isShutDown = true
        var actions: [SupervisorAction] = []
        switch cell {
        case .waitingForHost(let waiting), .recovering(let waiting):
            cell = .idle
            actions.append(.finishRun(waiting.id, .hostUnavailable("the kernel is shutting down")))
        default:
            break
        }
        recovery = nil
        snapshot = nil
        switch host {
        case .starting(let id), .reloading(let id), .ready(let id), .restoring(let id):
            host = .stopping(id)
            actions.append(.killHost(id))
        case .stopped, .stopping:
            break
        }
        return actions
    }

    // MARK: Helpers

    /// The host that takes commands now, if any.
    var readyHost: HostID? {
        if case .ready(let id) = host { return id }
        return nil
    }

    /// The cell whose run is in progress on a host, if any.
    var runningCell: CellID? {
        switch cell {
        case .running(let running, _), .interrupting(let running, _): running.id
        default: nil
        }
    }

    /// The cell whose run is in progress on host `id`, if any.
    func runningCell(on id: HostID) -> CellID? {
        switch cell {
        case .running(let running, id), .interrupting(let running, id): running.id
        default: nil
        }
    }

    private mutating func newHostID() -> HostID {
        defer { nextHostNumber += 1 }
        return HostID(rawValue: nextHostNumber)
    }

    /// An event the kernel's own code must never send: traps in a debug build; in a release
    /// build it is logged on the kernel's standard error and the caller refuses the event.
    private static func impossible(_ what: String) {
        assertionFailure("supervisor state: \(what)")
        Trace.warning("supervisor state: \(what); the event is refused")
    }
}
