@testable import CellEngine
import Glibc
import SystemSupport
import Testing

/// The supervisor's state machine, driven through every ordering of interrupts, compiles,
/// runs and host deaths the issue names, without a compiler or a process.
@Suite struct SupervisorStateTests {
    let host1 = HostID(rawValue: 1), host2 = HostID(rawValue: 2), host3 = HostID(rawValue: 3)
    let first = CellID(1), second = CellID(2), third = CellID(3)

    /// A machine whose first host is ready.
    func ready() -> SupervisorState {
        var state = SupervisorState()
        #expect(state.start() == [.spawnHost(host1, reload: false)])
        #expect(state.hostSynced(host1) == [])
        #expect(state.host == .ready(host1))
        return state
    }

    /// A machine running `cell` on host 1.
    func running(_ cell: CellID) -> SupervisorState {
        var state = ready()
        #expect(state.beginCompile(cell) == [])
        #expect(state.endCompile(cell, succeeded: true) == [.sendRun(cell, host1)])
        return state
    }

    @Test func aCellCompilesAndRunsOnTheReadyHost() {
        var state = running(first)
        #expect(state.runningCell == first)
        #expect(state.runReturned(first, on: host1, outcome: .returned(0)) == [.finishRun(first, .returned(.returned(0)))])
        #expect(state.cell == .idle)
    }

    @Test func theFirstCellStartsTheHostAndWaitsForIt() {
        var state = SupervisorState()
        #expect(state.beginCompile(first) == [.spawnHost(host1, reload: false)])
        #expect(state.endCompile(first, succeeded: true) == [])
        #expect(state.hostSynced(host1) == [.sendRun(first, host1)])
    }

    @Test func preparingTwiceStartsOneHost() {
        var state = SupervisorState()
        #expect(state.start() == [.spawnHost(host1, reload: false)])
        #expect(state.start() == [])
        #expect(state.beginCompile(first) == [])
    }

    // MARK: Interrupts

    @Test func anInterruptBeforeAnyCellDoesNothing() {
        var state = ready()
        #expect(state.interrupt() == [])
        #expect(state.beginCompile(first) == [])
        #expect(state.endCompile(first, succeeded: true) == [.sendRun(first, host1)])
    }

    @Test func anInterruptDuringCompileCancelsItAndNothingRuns() {
        var state = ready()
        _ = state.beginCompile(first)
        #expect(state.interrupt() == [.cancelCompile(first)])
        // Even if the compile got to the end first, the cell does not run.
        #expect(state.endCompile(first, succeeded: true) == [.finishRun(first, .interruptedBeforeRun)])
        #expect(state.cell == .idle)
        // The next cell compiles and runs untouched.
        _ = state.beginCompile(second)
        #expect(state.endCompile(second, succeeded: true) == [.sendRun(second, host1)])
    }

    @Test func aCancelledCompileThatFailedEndsInterruptedToo() {
        var state = ready()
        _ = state.beginCompile(first)
        _ = state.interrupt()
        #expect(state.endCompile(first, succeeded: false) == [.finishRun(first, .interruptedBeforeRun)])
    }

    @Test func anInterruptDuringARunSignalsTheHostAndSetsOneTimer() {
        var state = running(first)
        #expect(state.interrupt() == [.signalHost(host1, SIGINT), .stopInputWait(first), .startGraceTimer(first)])
        #expect(state.interrupt() == [.signalHost(host1, SIGINT), .stopInputWait(first)], "a second interrupt re-signals")
        #expect(state.runReturned(first, on: host1, outcome: .returned(1)) == [.finishRun(first, .returned(.returned(1)))])
        #expect(state.graceExpired(first) == [], "the cell stopped in time: its timer does nothing")
        #expect(state.host == .ready(host1))
    }

    @Test func anInterruptBetweenCellsReachesNoLaterCell() {
        // The kernel serves every interrupt that arrived before a cell begins (its control
        // fence), so a late interrupt for the first cell arrives here, between cells.
        var state = running(first)
        _ = state.runReturned(first, on: host1, outcome: .returned(0))
        #expect(state.interrupt() == [])
        _ = state.beginCompile(second)
        #expect(state.endCompile(second, succeeded: true) == [.sendRun(second, host1)], "the next cell runs")
        #expect(state.interrupt() == [.signalHost(host1, SIGINT), .stopInputWait(second), .startGraceTimer(second)],
                "an interrupt that arrives while it runs is for it")
    }

    @Test func aCellThatIgnoresTheInterruptHasItsHostKilledAndReplaced() {
        var state = running(first)
        _ = state.interrupt()
        #expect(state.graceExpired(first) == [.killHost(host1)])
        #expect(state.host == .stopping(host1))
        #expect(state.hostExited(host1, status: .signalled(signal: SIGKILL)) == [
            .finishRun(first, .hostExited(.signalled(signal: SIGKILL), afterInterrupt: true)),
            .spawnHost(host2, reload: true),
        ])
        #expect(state.host == .reloading(host2))
        #expect(state.cell == .idle)
        #expect(state.hostSynced(host2) == [])
        #expect(state.host == .ready(host2))
    }

    @Test func anInterruptDuringARestartEndsTheWaitingCell() {
        var state = running(first)
        _ = state.interrupt()
        _ = state.graceExpired(first)
        _ = state.hostExited(host1, status: .signalled(signal: SIGKILL))
        _ = state.beginCompile(second)
        #expect(state.endCompile(second, succeeded: true) == [], "waits for the reloading host")
        #expect(state.interrupt() == [.finishRun(second, .interruptedBeforeRun)])
        #expect(state.hostSynced(host2) == [], "nothing is left to run")
    }

    @Test func theIssueSequenceNeverInterruptsTheNextCell() {
        // Interrupt a cooperative loop, run a small cell, interrupt a runaway loop (host
        // killed after the grace period), then run a cell. A late copy of the last
        // interrupt reaches the machine before the next cell begins (the kernel serves
        // control requests that arrived before a cell first).
        var state = running(first)
        _ = state.interrupt()
        _ = state.runReturned(first, on: host1, outcome: .returned(1))
        _ = state.beginCompile(second)
        _ = state.endCompile(second, succeeded: true)
        _ = state.runReturned(second, on: host1, outcome: .returned(0))
        _ = state.beginCompile(third)
        _ = state.endCompile(third, succeeded: true)
        #expect(state.graceExpired(first) == [], "the first interrupt's timer fires during the third cell")
        #expect(state.runningCell == third)
        _ = state.interrupt()
        _ = state.graceExpired(third)
        _ = state.hostExited(host1, status: .signalled(signal: SIGKILL))
        _ = state.hostSynced(host2)
        let fourth = CellID(4)
        #expect(state.interrupt() == [], "the third cell's interrupt, arriving late")
        _ = state.beginCompile(fourth)
        #expect(state.endCompile(fourth, succeeded: true) == [.sendRun(fourth, host2)])
    }

    // MARK: Host deaths

    @Test func aHostThatDiesBetweenCellsIsReportedAndReplaced() {
        var state = ready()
        #expect(state.hostExited(host1, status: .signalled(signal: SIGSEGV)) == [
            .reportHostLoss(.signalled(signal: SIGSEGV)), .spawnHost(host2, reload: true),
        ])
    }

    @Test func aHostThatDiesWhileACellCompilesIsReplacedBeforeItRuns() {
        var state = ready()
        _ = state.beginCompile(first)
        #expect(state.hostExited(host1, status: .exited(code: 0)) == [
            .reportHostLoss(.exited(code: 0)), .spawnHost(host2, reload: true),
        ])
        #expect(state.endCompile(first, succeeded: true) == [])
        #expect(state.hostSynced(host2) == [.sendRun(first, host2)])
    }

    @Test func aHostThatDiesWhileACellRunsEndsThatCell() {
        var state = running(first)
        #expect(state.hostExited(host1, status: .signalled(signal: SIGILL)) == [
            .finishRun(first, .hostExited(.signalled(signal: SIGILL), afterInterrupt: false)),
            .spawnHost(host2, reload: true),
        ])
    }

    @Test func aHostThatDiesOnItsOwnDuringAnInterruptIsACrash() {
        var state = running(first)
        _ = state.interrupt()
        #expect(state.hostExited(host1, status: .signalled(signal: SIGABRT)) == [
            .finishRun(first, .hostExited(.signalled(signal: SIGABRT), afterInterrupt: false)),
            .spawnHost(host2, reload: true),
        ])
        #expect(state.graceExpired(first) == [])
    }

    @Test func aHostThatDiesWhileStartingIsNotRestartedInALoop() {
        var state = SupervisorState()
        _ = state.beginCompile(first)
        _ = state.endCompile(first, succeeded: true)
        #expect(state.hostExited(host1, status: .exited(code: 3)) == [
            .finishRun(first, .hostUnavailable("the cell host stopped while starting (exit status 3)")),
        ])
        #expect(state.host == .stopped)
        #expect(state.beginCompile(second) == [.spawnHost(host2, reload: false)], "the next cell tries again")
    }

    @Test func aHostThatCannotBeSpawnedEndsTheWaitingCell() {
        var state = SupervisorState()
        _ = state.beginCompile(first)
        _ = state.endCompile(first, succeeded: true)
        #expect(state.hostSpawnFailed(host1, reason: "no such file") == [.finishRun(first, .hostUnavailable("no such file"))])
    }

    @Test func eventsFromAReplacedHostAreIgnored() {
        var state = running(first)
        _ = state.hostExited(host1, status: .signalled(signal: SIGKILL))
        #expect(state.runReturned(first, on: host1, outcome: .returned(0)) == [])
        #expect(state.hostExited(host1, status: .signalled(signal: SIGKILL)) == [])
        #expect(state.hostSynced(host1) == [])
        #expect(state.host == .reloading(host2))
    }

    @Test func shutdownStopsTheHostForGood() {
        var state = ready()
        _ = state.beginCompile(first)
        #expect(state.shutdown() == [.killHost(host1)])
        #expect(state.hostExited(host1, status: .signalled(signal: SIGKILL)) == [])
        #expect(state.host == .stopped)
        #expect(state.endCompile(first, succeeded: true) == [.finishRun(first, .hostUnavailable("the kernel is shutting down"))])
        #expect(state.start() == [])
    }

    // MARK: Impossible transitions

    @Test func startingACellDuringAnotherIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            var state = SupervisorState()
            _ = state.beginCompile(CellID(1))
            _ = state.beginCompile(CellID(2))
        }
    }

    @Test func endingACompileThatDidNotStartIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            var state = SupervisorState()
            _ = state.endCompile(CellID(1), succeeded: true)
        }
    }
}
