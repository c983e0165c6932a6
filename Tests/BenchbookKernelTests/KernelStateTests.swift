@testable import BenchbookKernel
import Foundation
import JupyterWire
import Testing

/// The execution counter and the stop_on_error abort rules: no clock, only what had arrived.
@Suite struct ExecutionStateTests {
    @Test func theCountGrowsOnlyForStoredExecutions() {
        var state = ExecutionState()
        #expect(state.begin(storeHistory: true) == 1)
        state.end(failed: false, stopOnError: true, queued: 0)
        #expect(state.begin(storeHistory: false) == 1, "silent or unstored executions keep the count")
        state.end(failed: false, stopOnError: true, queued: 2)
        #expect(state.phase == .idle, "a run that did not fail aborts nothing")
        #expect(state.begin(storeHistory: true) == 2)
        state.end(failed: false, stopOnError: true, queued: 0)
        #expect(state.phase == .idle)
    }

    @Test func aFailureWithStopOnErrorAbortsExactlyTheExecutionsThatHadArrived() {
        var state = ExecutionState()
        _ = state.begin(storeHistory: true)
        state.end(failed: true, stopOnError: true, queued: 3)
        #expect(state.phase == .aborting(remaining: 3))
        #expect(state.take(isExecute: true) == .abort)
        #expect(state.take(isExecute: false) == .serve, "a completion request queued behind it is served")
        #expect(state.isAborting)
        #expect(state.take(isExecute: true) == .abort)
        #expect(state.phase == .idle, "the fourth request, sent after the reply, is not taken here")
        #expect(state.begin(storeHistory: true) == 2, "the next cell runs")
    }

    @Test func aFailureWithNothingQueuedOrWithoutStopOnErrorAbortsNothing() {
        var state = ExecutionState()
        _ = state.begin(storeHistory: true)
        state.end(failed: true, stopOnError: true, queued: 0)
        #expect(state.phase == .idle && !state.isAborting)
        _ = state.begin(storeHistory: true)
        state.end(failed: true, stopOnError: false, queued: 4)
        #expect(state.phase == .idle)
    }

    @Test func startingDuringAnExecutionIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            var state = ExecutionState()
            _ = state.begin(storeHistory: true)
            _ = state.begin(storeHistory: true)
        }
    }

    @Test func takingWithoutAFailureIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            var state = ExecutionState()
            _ = state.take(isExecute: true)
        }
    }
}

/// `history_request`: tail, range and search.
@Suite struct HistoryTests {
    func history() -> History {
        var history = History()
        for (line, input) in ["let a = 1", "a + 1", "print(a)", "a + 1", "let b = 2"].enumerated() {
            history.append(line: line + 1, input: input)
        }
        history.setOutput("2", line: 2)
        return history
    }

    @Test func tailGivesTheLastEntries() {
        #expect(history().tail(2).map(\.input) == ["a + 1", "let b = 2"])
        #expect(history().tail(0).isEmpty)
        #expect(history().tail(-3).isEmpty)
    }

    @Test func rangeIsHalfOpenAndStopZeroMeansToTheEnd() {
        #expect(history().range(start: 2, stop: 4).map(\.line) == [2, 3])
        #expect(history().range(start: 4, stop: 0).map(\.line) == [4, 5])
        #expect(history().range(start: 2, stop: 3).first?.output == "2")
    }

    @Test func searchMatchesGlobsNewestLastAndCanBeUnique() {
        #expect(history().search(pattern: "a*", count: 0, unique: false).map(\.line) == [2, 4])
        #expect(history().search(pattern: "a*", count: 0, unique: true).map(\.line) == [4])
        #expect(history().search(pattern: "let ?*", count: 1, unique: false).map(\.line) == [5])
        #expect(history().search(pattern: "nothing", count: 0, unique: false).isEmpty)
    }
}

/// Which stdin message answers an input request (issue 37: a stale reply answered the next question).
@Suite struct InputReplyMatchTests {
    let match = InputReplyMatch(requestID: "request-2")

    func message(_ type: String, parent: String?, value: String = "x") -> Message {
        let parentHeader: JSONValue = parent.map { ["msg_id": .string($0), "msg_type": "input_request"] } ?? [:]
        return Message(header: MessageHeader(messageType: type, session: "client"), parentHeaderJSON: parentHeader,
                       content: ["value": .string(value)])
    }

    @Test func aReplyToThisRequestOrWithoutAParentIsTheAnswer() {
        #expect(match.verdict(on: message("input_reply", parent: "request-2", value: "REAL")) == .answer("REAL"))
        #expect(match.verdict(on: message("input_reply", parent: nil, value: "typed")) == .answer("typed"),
                "jupyter_client's input() sends no parent")
    }

    @Test func aReplyToAnotherRequestOrAnotherMessageAnswersNothing() {
        #expect(match.verdict(on: message("input_reply", parent: "request-1", value: "STALE")) != .answer("STALE"))
        #expect(match.verdict(on: message("execute_request", parent: nil)) != .answer("x"))
    }
}
