@testable import BenchbookKernel
import Foundation
import JupyterWire
import Testing

/// The execution counter and the stop_on_error abort rules.
@Suite struct ExecutionStateTests {
    @Test func theCountGrowsOnlyForStoredExecutions() {
        var state = ExecutionState()
        #expect(state.begin(storeHistory: true) == 1)
        state.end(failed: false, stopOnError: true)
        #expect(state.begin(storeHistory: false) == 1, "silent or unstored executions keep the count")
        state.end(failed: false, stopOnError: true)
        #expect(state.begin(storeHistory: true) == 2)
        state.end(failed: false, stopOnError: true)
        #expect(state.phase == .idle)
    }

    @Test func aFailureWithStopOnErrorAbortsOnlyRequestsSentBeforeIt() throws {
        var state = ExecutionState()
        _ = state.begin(storeHistory: true)
        state.end(failed: true, stopOnError: true)
        #expect(state.phase == .aborting)
        let failure = try #require(state.failureTime)
        #expect(state.shouldAbort(sentAt: failure.addingTimeInterval(-1)), "queued before the failure")
        #expect(!state.shouldAbort(sentAt: failure.addingTimeInterval(1)), "the user's next cell")
        #expect(state.shouldAbort(sentAt: nil), "no date: part of the queue")
        state.finishAborting()
        #expect(state.phase == .idle)
        #expect(!state.shouldAbort(sentAt: failure.addingTimeInterval(-1)))
    }

    @Test func aFailureWithoutStopOnErrorAbortsNothing() {
        var state = ExecutionState()
        _ = state.begin(storeHistory: true)
        state.end(failed: true, stopOnError: false)
        #expect(state.phase == .idle)
        #expect(!state.shouldAbort(sentAt: nil))
    }

    @Test func startingDuringAnExecutionIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            var state = ExecutionState()
            _ = state.begin(storeHistory: true)
            _ = state.begin(storeHistory: true)
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

/// Reading the client's header date, which decides late interrupts and aborted queues.
@Suite struct MessageDateTests {
    @Test(arguments: [
        ("2026-12-01T10:00:00.123456Z", 1_796_119_200.123456),
        ("2026-12-01T10:00:00.000999Z", 1_796_119_200.000999),
        ("2026-12-01T10:00:00.5+00:00", 1_796_119_200.5),
        ("2026-12-01T11:00:00.25+01:00", 1_796_119_200.25),
        ("2026-12-01T10:00:00Z", 1_796_119_200.0),
    ])
    func datesAreReadToTheMicrosecond(text: String, seconds: Double) throws {
        var header = MessageHeader(messageType: "interrupt_request", session: "s")
        header.date = text
        let date = try #require(header.sentDate)
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
        #expect(header.clientStamp.session == "s")
    }

    /// The user's next cell, sent after a failure was reported but within the same
    /// millisecond, runs; read to the millisecond, it was taken for part of the failed queue.
    @Test func aRequestSentJustAfterAFailureIsNotAborted() throws {
        var state = ExecutionState()
        _ = state.begin(storeHistory: true)
        state.end(failed: true, stopOnError: true)
        let failure = try #require(state.failureTime).timeIntervalSince1970
        // Halfway between the failure and the end of its millisecond, written as
        // jupyter_client writes dates (six fraction digits).
        let millisecondEnd = ((failure * 1000).rounded(.down) + 1) / 1000
        let sent = failure + (millisecondEnd - failure) / 2
        let wholeSeconds = sent.rounded(.down)
        let micros = min(999_999, Int(((sent - wholeSeconds) * 1_000_000).rounded(.up)))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var header = MessageHeader(messageType: "execute_request", session: "s")
        header.date = formatter.string(from: Date(timeIntervalSince1970: wholeSeconds))
            .replacingOccurrences(of: "Z", with: String(format: ".%06dZ", micros))
        #expect(!state.shouldAbort(sentAt: header.sentDate), "\(header.date) against \(failure)")
    }

    @Test func anUnreadableDateGivesNoStamp() {
        var header = MessageHeader(messageType: "interrupt_request", session: "s")
        header.date = "yesterday"
        #expect(header.sentDate == nil)
        #expect(header.clientStamp.date == nil)
    }
}
