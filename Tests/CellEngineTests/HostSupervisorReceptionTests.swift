@testable import CellEngine
import Glibc
import HostProtocol
import SystemSupport
import Testing

/// What the supervisor does with a host's output, decided without a process: where the
/// output goes, what it keeps, and the state machine's actions after it.
@Suite struct HostSupervisorReceptionTests {
    let host1 = HostID(rawValue: 1), host2 = HostID(rawValue: 2)
    let cell = CellID(1)

    /// Host 1 ready and running `cell`.
    func running() -> SupervisorState {
        var state = SupervisorState()
        _ = state.start()
        _ = state.hostSynced(host1)
        _ = state.beginCompile(cell)
        #expect(state.endCompile(cell, succeeded: true) == [.sendRun(cell, host1)])
        return state
    }

    @Test func outputOfTheRunningCellsHostGoesToThatCell() {
        var state = running()
        let (effects, actions) = HostSupervisor.reception(of: .standardOutput(Array("hi\n".utf8)), from: host1, state: &state)
        #expect(actions.isEmpty)
        guard effects.count == 1, case .deliver(.standardOutput(let bytes), let to) = effects[0] else {
            Issue.record("expected one delivery, got \(effects)")
            return
        }
        #expect(bytes == Array("hi\n".utf8) && to == cell)
    }

    @Test func outputBetweenCellsGoesToTheBackground() {
        var state = SupervisorState()
        _ = state.start()
        _ = state.hostSynced(host1)
        let (effects, actions) = HostSupervisor.reception(of: .standardError([1]), from: host1, state: &state)
        #expect(actions.isEmpty)
        guard effects.count == 1, case .background(.standardError) = effects[0] else {
            Issue.record("expected the background, got \(effects)")
            return
        }
    }

    @Test func aCrashBetweenCellsIsKeptForTheLossItsExitMakes() {
        var state = SupervisorState()
        _ = state.start()
        _ = state.hostSynced(host1)
        let report = CrashReport(signal: SIGSEGV)
        let (effects, _) = HostSupervisor.reception(of: .crashed(report), from: host1, state: &state)
        guard effects.count == 2, case .keepCrashBetweenCells(let kept) = effects[0], case .background(.crashed) = effects[1] else {
            Issue.record("expected the report kept, then the background, got \(effects)")
            return
        }
        #expect(kept.signal == SIGSEGV)
    }

    @Test func anExitForgetsTheHostThenMovesTheStateAsHostExitedDoes() {
        var state = running(), expected = running()
        let status = ExitStatus.signalled(signal: SIGILL)
        let (effects, actions) = HostSupervisor.reception(of: .exited(status), from: host1, state: &state)
        guard effects.count == 1, case .forgetHost(let forgotten) = effects[0] else {
            Issue.record("expected the host forgotten, got \(effects)")
            return
        }
        #expect(forgotten == host1)
        #expect(actions == expected.hostExited(host1, status: status))
        #expect(state.host == expected.host && state.cell == expected.cell)
    }

    @Test func aSyncIsTheStateMachinesAlone() {
        var state = SupervisorState(), expected = SupervisorState()
        _ = state.start()
        _ = expected.start()
        let (effects, actions) = HostSupervisor.reception(of: .event(.synced(id: host1.rawValue)), from: host1, state: &state)
        #expect(effects.isEmpty)
        #expect(actions == expected.hostSynced(host1))
    }
}
