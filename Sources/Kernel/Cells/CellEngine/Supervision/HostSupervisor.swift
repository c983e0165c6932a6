import SystemSupport
import Foundation
import HostProtocol

/// Owns the cell host and makes every start, restart, cancel and interrupt decision by
/// driving a ``SupervisorState``.
///
/// Every entry point takes the lock, moves the state machine, and performs the actions it
/// returns before releasing the lock, so actions happen in the order the machine chose
/// them (an interrupt's SIGINT is never sent before the run command it follows). Actions
/// are quick: spawning a process, writing a short command, sending a signal, handing an
/// item to a waiting thread. A host's output is read the same way: ``reception(of:from:state:)``
/// moves the state and returns what to do with the output (``OutputEffect``) and the
/// machine's actions, and the supervisor performs both.
///
/// Thread rules: the shell thread calls ``beginCompile(_:cancellation:)``,
/// ``endCompile(_:run:)`` and ``sendInputReply(_:_:)``; the control thread calls
/// ``interrupt()``; any thread may call ``prepare()`` and ``shutdown()``; host readers and
/// grace timers call in on their own threads.
final class HostSupervisor: @unchecked Sendable {
    /// How to start a host.
    struct Launch: Sendable {
        /// `benchbook-cell-host`.
        var executable: String
        /// `libBenchbook.so`.
        var library: String
    }

    private let launch: Launch
    private let gracePeriod: Double
    private let librariesToReload: @Sendable (_ after: Int) -> [String]
    private let background: @Sendable (HostOutput) -> Void

    private let lock = NSLock()
    private var state = SupervisorState()
    private var becameSubreaper = false
    private var hosts: [HostID: HostProcess] = [:]
    private var sinks: [CellID: CellRunSink] = [:]
    private var cancellations: [CellID: CellCancellation] = [:]
    private var runCommands: [CellID: HostCommand] = [:]
    private var losses: [HostLoss] = []
    private var notes: [String] = []
    /// The newest snapshot of the current host (``SupervisorState/snapshot``).
    private var snapshot: HostSnapshot?
    /// When the promotion in progress started.
    private var restoreStarted: DispatchTime?
    /// How long the last promotion took, for the shell thread to report.
    private var restoreSeconds: [CellID: Double] = [:]
    /// The crash report of a host that died while none of its cells ran, for the
    /// ``HostLoss`` its exit makes.
    private var crashBetweenCells: CrashReport?

    /// How long a promoted snapshot has to answer its first sync before a fresh host
    /// replaces it.
    static let restoreTimeout: Double = 5

    /// A host that died while none of its cells ran.
    struct HostLoss: Sendable {
        /// How it ended.
        var status: ExitStatus
        /// What its crash handler reported (the runtime's message, the frames), if anything.
        var crash: CrashReport?
        /// The execution whose state a snapshot brought back, and how long that took;
        /// nil when a fresh host replaced it (values are gone).
        var restored: (afterCell: Int, seconds: Double)?
    }

    /// Creates a supervisor; nothing starts until ``prepare()`` or the first cell.
    /// - Parameters:
    ///   - launch: the host executable and the notebook library.
    ///   - gracePeriod: seconds a cell has to stop after an interrupt before its host is killed.
    ///   - librariesToReload: the libraries of cells after an execution (0: all), in order,
    ///     for a replacement host or a promoted snapshot to load.
    ///   - background: output a host writes while none of its cells runs (a thread an
    ///     earlier cell started), on the host's reader thread.
    init(launch: Launch, gracePeriod: Double, librariesToReload: @escaping @Sendable (_ after: Int) -> [String],
         background: @escaping @Sendable (HostOutput) -> Void) {
        self.launch = launch
        self.gracePeriod = gracePeriod
        self.librariesToReload = librariesToReload
        self.background = background
    }

    /// Starts the host (and loads the notebook library) without waiting for it.
    func prepare() {
        transition { $0.start() }
    }

    /// The host that takes commands now, with its process id, if one is ready.
    var readyHost: (id: HostID, pid: Int32)? {
        lock.withLock { state.readyHost.flatMap { id in hosts[id].map { (id, $0.process.pid) } } }
    }

    /// How long the promotion that brought back cell `id`'s host took, once.
    func takeRestoreSeconds(for id: CellID) -> Double? {
        lock.withLock { restoreSeconds.removeValue(forKey: id) }
    }

    /// A cell starts compiling; returns the sink its run will be handed through.
    func beginCompile(_ id: CellID, cancellation: CellCancellation) -> CellRunSink {
        let sink = CellRunSink()
        transition { state in
            sinks[id] = sink
            cancellations[id] = cancellation
            return state.beginCompile(id)
        }
        return sink
    }

    /// The cell's compile ended. With a run command, the cell runs as soon as the host is
    /// ready and its sink receives the run's output and end; without one (the compile
    /// failed), the cell is over.
    func endCompile(_ id: CellID, run command: HostCommand?) {
        transition { state in
            if let command { runCommands[id] = command }
            let actions = state.endCompile(id, succeeded: command != nil)
            if command == nil, !actions.contains(where: { if case .finishRun = $0 { true } else { false } }) {
                sinks[id] = nil
                cancellations[id] = nil
            }
            return actions
        }
    }

    /// The user interrupted (see ``SupervisorState/interrupt()``).
    func interrupt() {
        transition { $0.interrupt() }
    }

    /// Answers the running cell's input request.
    func sendInputReply(_ id: CellID, _ reply: InputReply) {
        lock.withLock {
            guard state.runningCell == id, let host = state.readyHost.flatMap({ hosts[$0] }) else { return }
            host.send(.inputReply(reply))
        }
    }

    /// Stops the host for good (the kernel is shutting down).
    func shutdown() {
        transition { $0.shutdown() }
    }

    /// The hosts that died between cells, since the last call.
    func takeHostLosses() -> [HostLoss] {
        lock.withLock {
            defer { losses.removeAll() }
            return losses
        }
    }

    /// Messages about reloading earlier cells into a new host, since the last call.
    func takeNotes() -> [String] {
        lock.withLock {
            defer { notes.removeAll() }
            return notes
        }
    }

    // MARK: Events from hosts and timers

    private func received(_ output: HostOutput, from hostID: HostID) {
        lock.lock()
        defer { lock.unlock() }
        let (effects, actions) = Self.reception(of: output, from: hostID, state: &state)
        effects.forEach(perform)
        performAll(actions)
    }

    /// What the supervisor does with a host's output besides the state machine's actions:
    /// where the output goes and what it keeps. ``received(_:from:)`` performs them, in
    /// order, before the actions.
    enum OutputEffect {
        /// Append the output to the cell's sink (a cell of that host runs).
        case deliver(HostOutput, to: CellID)
        /// Hand the output to `background` (no cell of that host runs).
        case background(HostOutput)
        /// Keep the crash report of a host that died while none of its cells ran, for the
        /// ``HostLoss`` its exit makes.
        case keepCrashBetweenCells(CrashReport)
        /// Keep the snapshot as the newest, releasing the one before (its copy exits).
        case keepSnapshot(HostSnapshot)
        /// Reap the orphans that exited meanwhile (a released snapshot's copy).
        case reapAdoptedOrphans
        /// Forget the exited host, and end what its cells started in sessions of their own
        /// (setsid, a double fork): it left the host's process group, which is gone now, and
        /// was re-parented to the kernel. All but the newest snapshot, about to take the
        /// host's place.
        case forgetHost(HostID)
        /// Keep a message for the next cell (``takeNotes()``).
        case note(String)
    }

    /// Moves the state for one output of host `hostID` and says what to do: the effects,
    /// then the state machine's actions. Reads and moves nothing but `state`.
    static func reception(of output: HostOutput, from hostID: HostID,
                          state: inout SupervisorState) -> (effects: [OutputEffect], actions: [SupervisorAction]) {
        switch output {
        case .event(.synced):
            return ([], state.hostSynced(hostID))
        case .event(.done(let outcome)):
            guard let cell = state.runningCell else { return ([], []) }
            return ([], state.runReturned(cell, on: hostID, outcome: outcome))
        case .exited(let status):
            return ([.forgetHost(hostID)], state.hostExited(hostID, status: status))
        case .crashed(let report):
            if let cell = state.runningCell(on: hostID) { return ([.deliver(output, to: cell)], []) }
            return ([.keepCrashBetweenCells(report), .background(output)], [])
        case .snapshot(let taken):
            let kept = state.snapshotTaken(by: hostID, afterCell: taken.afterCell)
            return ((kept ? [.keepSnapshot(taken)] : []) + [.reapAdoptedOrphans], [])
        case .event(.snapshotFailed(_, let reason)) where state.runningCell(on: hostID) == nil:
            return ([.note(CellErrorReport.snapshotFailed(reason: reason, label: nil))], [])
        case .event(.loadFailed(let library, let message)) where state.runningCell == nil:
            return ([.note("could not load \((library as NSString).lastPathComponent) into the cell host: \(message)")], [])
        default:
            if let cell = state.runningCell(on: hostID) { return ([.deliver(output, to: cell)], []) }
            return ([.background(output)], [])
        }
    }

    private func graceExpired(_ id: CellID) {
        transition { $0.graceExpired(id) }
    }

    private func restoreTimedOut(_ id: HostID) {
        transition { $0.restoreTimedOut(id) }
    }

    // MARK: Performing actions

    /// Runs one event under the lock and performs the actions it returns (and those that
    /// performing them returns, for a host that fails to start).
    private func transition(_ event: (inout SupervisorState) -> [SupervisorAction]) {
        lock.lock()
        defer { lock.unlock() }
        performAll(event(&state))
    }

    /// Performs the actions, and those that performing them returns. The caller holds the lock.
    private func performAll(_ actions: [SupervisorAction]) {
        var pending = actions
        while !pending.isEmpty {
            let action = pending.removeFirst()
            pending += perform(action)
        }
    }

    private func perform(_ effect: OutputEffect) {
        switch effect {
        case .deliver(let output, let cell):
            sinks[cell]?.append(output)
        case .background(let output):
            background(output)
        case .keepCrashBetweenCells(let report):
            crashBetweenCells = report
        case .keepSnapshot(let taken):
            snapshot = taken
        case .reapAdoptedOrphans:
            Subreaper.reapAdoptedOrphans()
        case .forgetHost(let id):
            hosts[id] = nil
            Subreaper.endAdoptedOrphans(sparing: snapshot.map { [$0.pid] } ?? [])
        case .note(let note):
            notes.append(note)
        }
    }

    private func perform(_ action: SupervisorAction) -> [SupervisorAction] {
        switch action {
        case .spawnHost(let id, let reload):
            if !becameSubreaper {
                // Snapshots outlive the host that forks them; the kernel must inherit them.
                becameSubreaper = (try? Subreaper.adoptOrphans()) != nil
            }
            snapshot = nil
            let host: HostProcess
            do {
                host = try HostProcess(id, executable: launch.executable, library: launch.library) { [weak self] output in
                    self?.received(output, from: id)
                }
            } catch {
                return state.hostSpawnFailed(id, reason: "\(launch.executable) could not be started: \(error)")
            }
            hosts[id] = host
            if reload {
                for library in librariesToReload(0) { host.send(.load(library: library)) }
            }
            host.send(.sync(id: id.rawValue))
        case .promoteSnapshot(let id):
            guard let promoted = snapshot else { return state.restoreFailed(id) }
            snapshot = nil
            restoreStarted = .now()
            let host: HostProcess
            do {
                host = try HostProcess(id, promoting: promoted) { [weak self] output in
                    self?.received(output, from: id)
                }
            } catch {
                return state.restoreFailed(id)
            }
            hosts[id] = host
            for library in librariesToReload(promoted.afterCell) { host.send(.load(library: library)) }
            host.send(.sync(id: id.rawValue))
        case .startRestoreTimer(let id):
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.restoreTimeout) { [weak self] in
                self?.restoreTimedOut(id)
            }
        case .reportHostRestored(let status, let afterCell):
            losses.append(HostLoss(status: status, crash: takeCrashBetweenCells(), restored: (afterCell, takeRestoreElapsed())))
        case .killHost(let id):
            hosts[id]?.kill()
        case .signalHost(let id, let number):
            hosts[id]?.signal(number)
        case .sendRun(let cell, let id):
            if let command = runCommands.removeValue(forKey: cell) {
                // A host that is gone reports its exit; the run then ends with it.
                hosts[id]?.send(command)
            }
        case .cancelCompile(let cell):
            cancellations[cell]?.cancel()
        case .stopInputWait(let cell):
            sinks[cell]?.stopInputWait()
        case .startGraceTimer(let cell):
            DispatchQueue.global().asyncAfter(deadline: .now() + gracePeriod) { [weak self] in
                self?.graceExpired(cell)
            }
        case .finishRun(let cell, let end):
            if case .hostRestored = end { restoreSeconds[cell] = takeRestoreElapsed() }
            cancellations[cell] = nil
            runCommands[cell] = nil
            var end = end
            if case .hostUnavailable(let reason) = end, !notes.isEmpty {
                end = .hostUnavailable(([reason] + notes).joined(separator: "; "))
                notes.removeAll()
            }
            sinks.removeValue(forKey: cell)?.finish(end)
        case .reportHostLoss(let status):
            losses.append(HostLoss(status: status, crash: takeCrashBetweenCells(), restored: nil))
        }
        return []
    }

    private func takeCrashBetweenCells() -> CrashReport? {
        defer { crashBetweenCells = nil }
        return crashBetweenCells
    }

    /// Seconds since the promotion started.
    private func takeRestoreElapsed() -> Double {
        defer { restoreStarted = nil }
        guard let started = restoreStarted else { return 0 }
        return Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    }
}
