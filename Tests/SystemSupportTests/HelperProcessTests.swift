import Foundation
import Synchronization
@testable import SystemSupport
import Testing

/// A framed helper, with real processes: `cat` answers each frame with itself, `sleep`
/// never answers, `true` exits at once.
@Suite struct HelperProcessTests {
    init() {
        // As the kernel does: a request written to a helper that exited fails with EPIPE.
        CurrentProcess.ignore(SIGPIPE)
    }

    /// Remembers the processes it was given and can kill the current one.
    final class Tracker: ProcessTracker {
        let tracked = Mutex<[ChildProcess]>([])
        func track(_ process: ChildProcess) { tracked.withLock { $0.append(process) } }
        func untrack() {}
        var pids: [Int32] { tracked.withLock { $0.map(\.pid) } }
    }

    static func helper(_ executable: String, _ arguments: [String] = [],
                       policy: RestartPolicy = .standard) -> HelperProcess {
        HelperProcess(name: "the test helper", configuration: .init(executable: executable, arguments: arguments), policy: policy)
    }

    @Test func aHelperAnswersAndIsKeptBetweenRequests() throws {
        let echo = Self.helper("/bin/cat")
        defer { echo.stop() }
        let tracker = Tracker()
        #expect(try echo.exchange([1, 2, 3], tracker: tracker) == [1, 2, 3])
        // Less than a pipe holds: `cat` answers while it reads, and an exchange writes the
        // whole request before it reads (a helper reads a request whole before answering).
        let large = (0..<60_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(try echo.exchange(large, tracker: tracker) == large)
        #expect(try echo.exchange([], tracker: tracker) == [])
        #expect(Set(tracker.pids).count == 1)
    }

    /// Issue 37, item 8: a processor-time budget does not run out while the helper waits
    /// (here `sleep`, which uses none), only while it works (a shell loop).
    @Test func aProcessorBudgetCountsWorkNotWaiting() throws {
        let sleeper = Self.helper("/bin/sleep", ["3"])
        defer { sleeper.stop() }
        let started = ContinuousClock.now
        #expect(throws: HelperProcess.ExchangeError.self) {
            try sleeper.exchange([1], deadline: .now + .seconds(1), processorSeconds: 0.2)
        }
        #expect(ContinuousClock.now - started >= .seconds(0.9), "only the wall-clock guard stopped it")
        let spinner = Self.helper("/bin/sh", ["-c", "while :; do :; done"])
        defer { spinner.stop() }
        let spun = ContinuousClock.now
        do {
            _ = try spinner.exchange([1], deadline: .now + .seconds(60), processorSeconds: 0.3)
            Issue.record("a helper that spins answered")
        } catch {
            #expect(error == .timedOut(.signalled(signal: SIGKILL)))
        }
        #expect(ContinuousClock.now - spun < .seconds(30), "the budget stopped it, long before the guard")
    }

    @Test func aRequestPastItsDeadlineKillsTheHelperAndTheNextStartsAnother() throws {
        let tracker = Tracker()
        let silent = Self.helper("/bin/sleep", ["1000"])
        defer { silent.stop() }
        #expect(throws: HelperProcess.ExchangeError.timedOut(.signalled(signal: SIGKILL))) {
            try silent.exchange([1], deadline: .now + .milliseconds(200), tracker: tracker)
        }
        #expect(throws: HelperProcess.ExchangeError.timedOut(.signalled(signal: SIGKILL))) {
            try silent.exchange([1], deadline: .now + .milliseconds(200), tracker: tracker)
        }
        let pids = tracker.pids
        #expect(pids.count == 2 && pids[0] != pids[1])
    }

    @Test func aHelperKilledByItsTrackerEndsTheRequestWithoutADeadline() throws {
        let silent = Self.helper("/bin/sleep", ["1000"])
        defer { silent.stop() }
        let tracker = Tracker()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            tracker.tracked.withLock { $0.last?.signal(SIGKILL) }
        }
        #expect(throws: HelperProcess.ExchangeError.ended(.signalled(signal: SIGKILL))) {
            try silent.exchange([1], tracker: tracker)
        }
    }

    @Test func aHelperThatExitsEndsTheRequest() {
        let quitter = Self.helper("/bin/true")
        defer { quitter.stop() }
        #expect(throws: HelperProcess.ExchangeError.self) { try quitter.exchange([1]) }
        // Not a failure of the helper: the next request starts it again at once (and it
        // exits again), rather than being refused for a restart delay.
        do {
            _ = try quitter.exchange([1])
            Issue.record("true answered")
        } catch {
            if case .unavailable = error { Issue.record("a helper that exited was held back: \(error)") }
        }
    }

    @Test func aHelperThatCannotStartIsTriedAgainAfterItsDelay() throws {
        // Two seconds: the second attempt below must come within it, even on a loaded machine.
        let policy = RestartPolicy(firstDelay: .seconds(2), longestDelay: .seconds(10))
        let missing = Self.helper("/nonexistent/benchbook-helper", policy: policy)
        guard case .unavailable(let first)? = exchangeError(missing) else { Issue.record("a missing program started"); return }
        #expect(first.reason.contains("could not be started"))
        #expect(first.retryIn == .seconds(2))
        // Within the delay: refused without an attempt, saying when the next one is.
        guard case .unavailable(let waiting)? = exchangeError(missing) else { Issue.record("no wait"); return }
        #expect(waiting.retryIn <= .seconds(2) && waiting.retryIn > .zero)
        // After it: tried again, failed again, and the wait doubled.
        Thread.sleep(forTimeInterval: 2.05)
        guard case .unavailable(let second)? = exchangeError(missing) else { Issue.record("no second attempt"); return }
        #expect(second.retryIn == .seconds(4))
    }

    @Test func aHelperMarkedFailedWaitsThenServesAgain() throws {
        let echo = Self.helper("/bin/cat", policy: RestartPolicy(firstDelay: .seconds(2), longestDelay: .seconds(10)))
        defer { echo.stop() }
        #expect(try echo.exchange([7]) == [7])
        let failure = echo.fail("it said it cannot serve here")
        #expect(failure.description.contains("it said it cannot serve here"))
        guard case .unavailable(let waiting)? = exchangeError(echo) else { Issue.record("served while waiting"); return }
        #expect(waiting.reason == "it said it cannot serve here")
        Thread.sleep(forTimeInterval: 2.05)
        #expect(try echo.exchange([8]) == [8])
    }

    @Test func aWarmUpStartsTheHelperThatTheFirstRequestUses() throws {
        let echo = Self.helper("/bin/cat")
        defer { echo.stop() }
        echo.warmUp()
        let tracker = Tracker()
        #expect(try echo.exchange([1], tracker: tracker) == [1])
        let pid = try #require(tracker.pids.first)
        #expect(echo.stop() == .signalled(signal: SIGKILL))
        #expect(kill(pid, 0) == -1)
        #expect(echo.stop() == nil)
    }

    private func exchangeError(_ helper: HelperProcess) -> HelperProcess.ExchangeError? {
        do {
            _ = try helper.exchange([1], deadline: .now + .seconds(30))
            return nil
        } catch {
            return error
        }
    }
}
