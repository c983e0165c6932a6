@testable import CellEngine
import Glibc
import SystemSupport
import Testing

/// The supervisor's state machine when a host dies with a snapshot to promote: the cell's
/// end waits for the outcome, a promotion that fails or hangs falls back to a fresh host,
/// and snapshots of replaced hosts are never used.
@Suite struct SupervisorRecoveryTests {
    let host1 = HostID(rawValue: 1), host2 = HostID(rawValue: 2), host3 = HostID(rawValue: 3)
    let first = CellID(1), second = CellID(2)
    let crash = ExitStatus.signalled(signal: SIGILL)

    /// Host 1 ready, with a snapshot after execution `after`, running `second`.
    func runningWithSnapshot(after: Int = 1) -> SupervisorState {
        var state = SupervisorState()
        _ = state.start()
        _ = state.hostSynced(host1)
        let kept = state.snapshotTaken(by: host1, afterCell: after)
        #expect(kept)
        _ = state.beginCompile(second)
        #expect(state.endCompile(second, succeeded: true) == [.sendRun(second, host1)])
        return state
    }

    @Test func aCrashPromotesTheSnapshotAndTheCellEndsOnceItAnswers() {
        var state = runningWithSnapshot()
        #expect(state.hostExited(host1, status: crash) == [.promoteSnapshot(host2), .startRestoreTimer(host2)])
        #expect(state.cell == .recovering(.init(id: second)))
        #expect(state.interrupt() == [], "nothing runs while the snapshot is promoted")
        #expect(state.hostSynced(host2) == [.finishRun(second, .hostRestored(crash, afterInterrupt: false, restoredAfter: 1))])
        #expect(state.host == .ready(host2) && state.cell == .idle)
        #expect(state.snapshot == nil, "a promoted snapshot is used up")
    }

    @Test func aHostKilledAfterTheGracePeriodIsRestoredToo() {
        var state = runningWithSnapshot()
        _ = state.interrupt()
        #expect(state.graceExpired(second) == [.killHost(host1)])
        #expect(state.hostExited(host1, status: .signalled(signal: SIGKILL)) == [.promoteSnapshot(host2), .startRestoreTimer(host2)])
        #expect(state.hostSynced(host2) == [
            .finishRun(second, .hostRestored(.signalled(signal: SIGKILL), afterInterrupt: true, restoredAfter: 1)),
        ])
    }

    @Test func aPromotionThatCannotStartFallsBackToAFreshHost() {
        var state = runningWithSnapshot()
        _ = state.hostExited(host1, status: crash)
        #expect(state.restoreFailed(host2) == [
            .finishRun(second, .hostExited(crash, afterInterrupt: false)), .spawnHost(host3, reload: true),
        ])
        #expect(state.host == .reloading(host3))
    }

    @Test func aPromotedSnapshotThatHangsIsKilledAndReplaced() {
        var state = runningWithSnapshot()
        _ = state.hostExited(host1, status: crash)
        #expect(state.restoreTimedOut(host2) == [.killHost(host2)])
        #expect(state.hostExited(host2, status: .signalled(signal: SIGKILL)) == [
            .finishRun(second, .hostExited(crash, afterInterrupt: false)), .spawnHost(host3, reload: true),
        ])
        #expect(state.restoreTimedOut(host2) == [], "a timer for a host already replaced")
    }

    @Test func aHostThatDiesBetweenCellsIsRestoredAndReported() {
        var state = SupervisorState()
        _ = state.start()
        _ = state.hostSynced(host1)
        _ = state.snapshotTaken(by: host1, afterCell: 4)
        #expect(state.hostExited(host1, status: crash) == [.promoteSnapshot(host2), .startRestoreTimer(host2)])
        _ = state.beginCompile(second)
        #expect(state.endCompile(second, succeeded: true) == [], "the cell waits for the restored host")
        #expect(state.hostSynced(host2) == [.reportHostRestored(crash, afterCell: 4), .sendRun(second, host2)])
    }

    @Test func snapshotsOfAReplacedHostAreRefused() {
        var state = runningWithSnapshot()
        _ = state.hostExited(host1, status: crash)
        let fromTheDeadHost = state.snapshotTaken(by: host1, afterCell: 2)
        #expect(!fromTheDeadHost)
        let fromThePromotedOne = state.snapshotTaken(by: host2, afterCell: 1)
        #expect(fromThePromotedOne)
    }

    @Test func withoutASnapshotTheHostIsReplacedAsBefore() {
        var state = SupervisorState()
        _ = state.start()
        _ = state.hostSynced(host1)
        _ = state.beginCompile(second)
        _ = state.endCompile(second, succeeded: true)
        #expect(state.hostExited(host1, status: crash) == [
            .finishRun(second, .hostExited(crash, afterInterrupt: false)), .spawnHost(host2, reload: true),
        ])
    }

    @Test func shuttingDownDuringAPromotionEndsTheWaitingCell() {
        var state = runningWithSnapshot()
        _ = state.hostExited(host1, status: crash)
        #expect(state.shutdown() == [.finishRun(second, .hostUnavailable("the kernel is shutting down")), .killHost(host2)])
        #expect(state.hostExited(host2, status: .signalled(signal: SIGKILL)) == [])
        #expect(state.host == .stopped)
    }
}
