@testable import CellEngine
import Foundation
import Testing

/// A cell's streams: batched like ipykernel's, in order, whole characters only, and cut at
/// the output limit with the rest in a file.
@Suite struct CellStreamsTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cell-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func streams(limit: OutputLimit = .none, label: String = "In[7]") -> CellStreams {
        let folder = self.folder
        return CellStreams(limit: limit) {
            OutputSpill(label: label, workingDirectory: folder, fallback: folder.appendingPathComponent("work"))
        }
    }

    @Test func manyShortLinesWaitForTheIntervalAndGoAsOneMessage() {
        var streams = streams()
        let start = ContinuousClock.now
        var sent: [CellStreams.Chunk] = []
        for index in 0..<1_000 {
            sent += streams.take(Array("line \(index)\n".utf8), from: .stdout, now: start + .microseconds(index))
        }
        #expect(sent.isEmpty, "nothing is sent before the interval has passed")
        #expect(streams.deadline == start + CellStreams.flushInterval)
        sent += streams.take(Array("last\n".utf8), from: .stdout, now: start + CellStreams.flushInterval)
        #expect(sent.count == 1)
        #expect(sent.first?.text == (0..<1_000).map { "line \($0)\n" }.joined() + "last\n")
        #expect(streams.deadline == nil)
    }

    @Test func aBatchIsSentWhenItIsFull() {
        var streams = streams()
        let now = ContinuousClock.now
        let sent = streams.take([UInt8](repeating: UInt8(ascii: "a"), count: CellStreams.batchBytes + 5), from: .stdout, now: now)
        #expect(sent.map(\.text.utf8.count) == [CellStreams.batchBytes + 5])
    }

    @Test func theTwoStreamsKeepTheirOrder() {
        var streams = streams()
        let now = ContinuousClock.now
        var sent = streams.take(Array("out 1\n".utf8), from: .stdout, now: now)
        sent += streams.take(Array("err 1\n".utf8), from: .stderr, now: now)
        sent += streams.take(Array("out 2\n".utf8), from: .stdout, now: now)
        sent += streams.finish(crash: nil)
        #expect(sent == [.init(name: .stdout, text: "out 1\n"), .init(name: .stderr, text: "err 1\n"), .init(name: .stdout, text: "out 2\n")])
    }

    @Test func aCharacterSplitBetweenReadsIsSentWhole() {
        var streams = streams()
        let bytes = Array("é€😀".utf8)
        var sent: [CellStreams.Chunk] = []
        for byte in bytes { _ = streams.take([byte], from: .stdout, now: .now); sent += streams.flush() }
        #expect(sent.map(\.text).joined() == "é€😀")
        #expect(sent.allSatisfy { !$0.text.contains("\u{FFFD}") })
    }

    @Test func generatedNamesAreRemovedFromStandardErrorOnly() {
        var streams = streams()
        var sent = streams.take(Array("Cell3.Point\n".utf8), from: .stdout, now: .now)
        sent += streams.take(Array("Cell3.Point\n".utf8), from: .stderr, now: .now)
        sent += streams.finish(crash: nil)
        #expect(sent == [.init(name: .stdout, text: "Cell3.Point\n"), .init(name: .stderr, text: "Point\n")])
    }

    @Test func outputPastTheLimitGoesToAFileAndTheNotebookIsToldWhere() throws {
        var streams = streams(limit: OutputLimit(bytes: 1_000))
        let line = Array((String(repeating: "o", count: 99) + "\n").utf8)
        var sent: [CellStreams.Chunk] = []
        for _ in 0..<50 { sent += streams.take(line, from: .stdout, now: .now) }
        for _ in 0..<5 { sent += streams.take(Array("e\n".utf8), from: .stderr, now: .now) }
        sent += streams.finish(crash: nil)
        let shownOutput = sent.filter { $0.name == .stdout }.map(\.text).joined()
        #expect(shownOutput.utf8.count == 1_000)
        let notices = sent.filter { $0.text.contains("[Output limit") }.map(\.text)
        #expect(notices.count == 2)
        #expect(notices.first?.contains("this cell has shown 1.0 kB") == true)
        #expect(notices.last == "\n[Output limit: 4.0 kB of stdout not shown; all of it is in benchbook-output/In7-stdout.txt; 10 bytes of stderr not shown; all of it is in benchbook-output/In7-stderr.txt]\n")
        let whole = try String(contentsOf: folder.appendingPathComponent("benchbook-output/In7-stdout.txt"), encoding: .utf8)
        #expect(whole == String(repeating: String(decoding: line, as: UTF8.self), count: 50))
        let errors = try String(contentsOf: folder.appendingPathComponent("benchbook-output/In7-stderr.txt"), encoding: .utf8)
        #expect(errors == String(repeating: "e\n", count: 5))
    }

    @Test func anUnwritableFolderFallsBackToTheWorkDirectory() throws {
        let blocked = folder.appendingPathComponent("benchbook-output")
        try Data().write(to: blocked)  // a file where the folder would be
        var streams = streams(limit: OutputLimit(bytes: 10))
        var sent = streams.take(Array("0123456789abcdef\n".utf8), from: .stdout, now: .now)
        sent += streams.finish(crash: nil)
        let summary = try #require(sent.last?.text)
        #expect(summary.contains(folder.appendingPathComponent("work/benchbook-output/In7-stdout.txt").path))
        #expect(summary.contains("deleted when the kernel stops"))
    }

    @Test(arguments: [("10M", 10_000_000), ("500k", 500_000), ("0", nil), ("123", 123), ("2G", 2_000_000_000)] as [(String, Int?)])
    func limitsAreReadFromTheEnvironment(text: String, bytes: Int?) throws {
        let limit = try OutputLimit.from(environment: [OutputLimit.environmentVariable: text])
        #expect(limit.bytes == bytes)
    }

    @Test func aLimitThatIsNotASizeIsAnError() throws {
        for text in ["ten", "-1", "5MB", "", "1.5M"] {
            do {
                _ = try OutputLimit.from(environment: [OutputLimit.environmentVariable: text])
                Issue.record("BENCHBOOK_OUTPUT_LIMIT=\(text) was taken")
            } catch {
                #expect("\(error)".hasPrefix("BENCHBOOK_OUTPUT_LIMIT=\(text) is not a size: write a number of bytes"))
            }
        }
        let unset = try OutputLimit.from(environment: [:])
        #expect(unset == .standard)
    }
}

/// The hand-over from the host's reader thread to the shell thread.
@Suite struct CellRunSinkTests {
    @Test func aWaitWithADeadlineEndsEmptyHanded() {
        let sink = CellRunSink()
        #expect(sink.next(until: .now + .milliseconds(20)) == nil)
    }

    @Test func itemsComeOutInOrderHoweverManyWait() {
        let sink = CellRunSink()
        for index in 0..<10_000 { sink.append(.standardOutput([UInt8(index % 256)])) }
        sink.finish(.interruptedBeforeRun)
        var seen: [UInt8] = []
        while case .output(.standardOutput(let bytes))? = sink.next(until: .now) { seen += bytes }
        #expect(seen == (0..<10_000).map { UInt8($0 % 256) })
    }

    @Test func anItemAppendedWhileWaitingEndsTheWait() async {
        let sink = CellRunSink()
        let appender = Task.detached {
            try? await Task.sleep(for: .milliseconds(50))
            sink.append(.standardOutput([7]))
        }
        // A deadline far away: only the item can end this wait.
        if case .output(.standardOutput(let bytes))? = sink.next(until: .now + .seconds(600)) {
            #expect(bytes == [7])
        } else {
            Issue.record("the wait ended without the item")
        }
        await appender.value
    }
}

/// Issue 37, item 5: text shaped like a crash is the cell's unless the host's crash report
/// (its own channel) says the runtime wrote it.
@Suite struct CellStreamsCrashTests {
    func streams() -> CellStreams {
        CellStreams(limit: .none) { OutputSpill(label: "In[1]", workingDirectory: URL(fileURLWithPath: "/tmp"),
                                                fallback: URL(fileURLWithPath: "/tmp")) }
    }

    @Test func heldTextIsShownInItsPlaceWhenTheCellWritesOn() {
        var streams = streams()
        var sent = streams.take(Array("In[3]:1: Fatal error: not really\n".utf8), from: .stderr, now: .now)
        #expect(sent.isEmpty, "held until the cell writes on")
        sent += streams.take(Array("next\n".utf8), from: .stdout, now: .now)
        sent += streams.finish(crash: nil)
        #expect(sent == [.init(name: .stderr, text: "In[3]:1: Fatal error: not really\n"), .init(name: .stdout, text: "next\n")])
    }

    @Test func theRuntimesMessageIsTakenOutOnlyWhenTheCrashReportNamesIt() {
        let written = "In[3]:2: Fatal error: boom\n"
        var crashed = streams()
        var sent = crashed.take(Array((written + "Current stack trace:\n0    libswiftCore.so 0x00007f 0 x + 1\n").utf8), from: .stderr, now: .now)
        sent += crashed.finish(crash: CrashReport(signal: 4, writtenMessage: written))
        #expect(sent.map(\.text).joined().isEmpty)
        var other = streams()
        sent = other.take(Array(written.utf8), from: .stderr, now: .now)
        sent += other.finish(crash: CrashReport(signal: 11, writtenMessage: nil))
        #expect(sent.map(\.text).joined() == written, "a crash without that message leaves the cell's text alone")
    }
}
