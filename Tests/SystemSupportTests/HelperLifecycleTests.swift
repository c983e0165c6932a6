@testable import SystemSupport
import Testing

/// The start and restart rules of a helper process, without a process or a clock: the
/// times are made up, the clients are numbers.
@Suite struct HelperLifecycleTests {
    let start = ContinuousClock.now

    @Test func theDelayDoublesFromTheFirstUpToTheLongest() {
        let policy = RestartPolicy(firstDelay: .seconds(1), longestDelay: .seconds(10))
        #expect((0...6).map { policy.delay(afterFailures: $0) }
            == [.zero, .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(policy.delay(afterFailures: 10_000) == .seconds(10))
    }

    @Test func aStoppedHelperIsStartedAgainAtOnce() throws {
        var lifecycle = HelperLifecycle<Int>(helper: "the test helper")
        #expect(try lifecycle.needsStart(at: start))
        lifecycle.started(1)
        #expect(try !lifecycle.needsStart(at: start))
        #expect(lifecycle.client == 1)
        #expect(lifecycle.stop() == 1)
        #expect(lifecycle.stop() == nil)
        #expect(try lifecycle.needsStart(at: start))
        #expect(lifecycle.failuresInARow == 0)
    }

    @Test func aFailedHelperWaitsAndIsNeverGivenUp() throws {
        var lifecycle = HelperLifecycle<Int>(helper: "the test helper",
                                             policy: RestartPolicy(firstDelay: .seconds(1), longestDelay: .seconds(4)))
        lifecycle.started(1)
        let first = lifecycle.fail("it cannot compile here", at: start)
        #expect(first.client == 1)
        #expect(first.error.retryIn == .seconds(1))
        #expect(lifecycle.client == nil)
        let waiting = #expect(throws: HelperUnavailable.self) { try lifecycle.needsStart(at: start + .milliseconds(500)) }
        #expect(waiting?.reason == "it cannot compile here")
        #expect(waiting?.retryIn == .milliseconds(500))
        #expect(waiting?.description == "the test helper is not available (it cannot compile here); it is started again in 1 s")
        // Stopping a waiting helper does not cut its wait short.
        #expect(lifecycle.stop() == nil)
        #expect(throws: HelperUnavailable.self) { try lifecycle.needsStart(at: start + .milliseconds(999)) }
        #expect(try lifecycle.needsStart(at: start + .seconds(1)))

        // Failures in a row wait longer, up to the longest delay; each still ends.
        var now = start + .seconds(1)
        for expected in [2, 4, 4, 4] {
            let failure = lifecycle.fail("it could not be started", at: now)
            #expect(failure.client == nil)
            #expect(failure.error.retryIn == .seconds(expected))
            #expect(throws: HelperUnavailable.self) { try lifecycle.needsStart(at: now + .seconds(expected) - .milliseconds(1)) }
            now += .seconds(expected)
            #expect(try lifecycle.needsStart(at: now))
        }
    }

    @Test func servingARequestResetsTheWait() throws {
        var lifecycle = HelperLifecycle<Int>(helper: "the test helper")
        for _ in 0..<3 { _ = lifecycle.fail("no", at: start) }
        #expect(lifecycle.failuresInARow == 3)
        lifecycle.started(2)
        lifecycle.served()
        #expect(lifecycle.failuresInARow == 0)
        #expect(lifecycle.fail("no", at: start).error.retryIn == RestartPolicy.standard.firstDelay)
    }
}
