@testable import CellEngine
import Testing

/// Standard error on its way to the notebook (issue 37, item 5): everything the cell wrote
/// is shown, in order; only the runtime's message that the host's crash report names is
/// taken out, in one pass.
@Suite struct StandardErrorFilterTests {
    /// Runs text through a filter in pieces of `piece` bytes; with `crash`, finishes the run.
    static func filtered(_ text: String, piece: Int = .max, finishing: Bool = false,
                         crash: CrashReport? = nil) -> (shown: String, filter: StandardErrorFilter) {
        var filter = StandardErrorFilter()
        var shown: [UInt8] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            filter.append(bytes[start..<end], into: &shown)
            start = end
        }
        if finishing || crash != nil { filter.finish(crash: crash, into: &shown) }
        return (String(decoding: shown, as: UTF8.self), filter)
    }

    static let trace = """
    In[4]:2: Fatal error: Index out of range
    Current stack trace:
    0    libswiftCore.so    0x00007f0000001234 swift_reportError + 33
    1    libCell4.so   0x0000000000000010 <unavailable> + 12

    """

    @Test(arguments: [1, 2, 7, 64, Int.max])
    func theRuntimesMessageAndTraceAreTakenOutWhenTheCrashReportSaysSo(piece: Int) {
        let crash = CrashReport(signal: 4, writtenMessage: "In[4]:2: Fatal error: Index out of range\n")
        let (shown, _) = Self.filtered("before\n" + Self.trace, piece: piece, crash: crash)
        #expect(shown == "before\n")
    }

    @Test(arguments: [1, 7, Int.max])
    func withoutACrashEverythingIsShownAsWritten(piece: Int) {
        let text = "before\n" + Self.trace + "@@benchbook-crash-frame@@ 0x10 /tmp/libCell1.so\nafter\n"
        let (shown, _) = Self.filtered(text, piece: piece, finishing: true)
        #expect(shown == text)
    }

    @Test func aCrashWithAnotherMessageLeavesTheCellsTextAlone() {
        let crash = CrashReport(signal: 4, writtenMessage: "In[9]:1: Fatal error: the real one\n")
        let (shown, _) = Self.filtered(Self.trace, crash: crash)
        #expect(shown == Self.trace)
        let (segfault, _) = Self.filtered(Self.trace, crash: CrashReport(signal: 11))
        #expect(segfault == Self.trace)
    }

    @Test func heldTextIsShownInItsPlaceWhenAnotherLineFollows() {
        var filter = StandardErrorFilter()
        var shown: [UInt8] = []
        filter.append(Array("main.swift:3: Fatal error: only words\n".utf8)[...], into: &shown)
        #expect(shown.isEmpty && filter.isHolding)
        filter.append(Array("the end\n".utf8)[...], into: &shown)
        #expect(String(decoding: shown, as: UTF8.self) == "main.swift:3: Fatal error: only words\nthe end\n")
        #expect(!filter.isHolding)
    }

    @Test func wordsInTheMiddleOfALineAreNotHeld() {
        let (shown, filter) = Self.filtered("the log said Fatal error: here\n")
        #expect(shown == "the log said Fatal error: here\n")
        #expect(!filter.isHolding)
    }

    @Test func aMessageAfterUnfinishedTextEndsThatLineWhenTakenOut() {
        let crash = CrashReport(signal: 4, writtenMessage: "In[2]:1: Fatal error: boom\n")
        let (shown, _) = Self.filtered("progress 50%In[2]:1: Fatal error: boom\n", crash: crash)
        #expect(shown == "progress 50%\n")
        let (kept, _) = Self.filtered("progress 50%In[2]:1: Fatal error: boom\n", finishing: true)
        #expect(kept == "progress 50%In[2]:1: Fatal error: boom\n", "without the crash report the text is exact")
    }

    @Test func aLineThatOnlyLooksLikeATraceFrameIsShown() {
        let (shown, _) = Self.filtered("0    libfoo.so    0x00007f 0 not after a trace header\n")
        #expect(shown == "0    libfoo.so    0x00007f 0 not after a trace header\n")
    }

    /// A 20 MB line passes on while it is written: only the last window is kept back.
    @Test func aLongLinePassesOnAsItArrives() {
        let line = String(repeating: "x", count: 20_000_000)
        var filter = StandardErrorFilter()
        var shown: [UInt8] = []
        let bytes = Array(line.utf8)
        var start = 0
        var keptBackMost = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 65_536)
            filter.append(bytes[start..<end], into: &shown)
            keptBackMost = max(keptBackMost, end - shown.count)
            start = end
        }
        #expect(keptBackMost <= 2 * StandardErrorFilter.window + 65_536)
        filter.append(Array("\n".utf8)[...], into: &shown)
        #expect(shown.count == 20_000_001)
        #expect(shown.allSatisfy { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "\n") })
    }

    /// After 20 MB of text without a newline, the runtime's message is still found and
    /// taken out, and the text before it is shown whole.
    @Test func aCrashAfterALongUnfinishedLineIsStillRecognised() {
        let message = "Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range\n"
        let text = String(repeating: "y", count: 20_000_000) + message
        let (shown, _) = Self.filtered(text, piece: 65_536, crash: CrashReport(signal: 4, writtenMessage: message))
        #expect(shown.utf8.count == 20_000_001 && shown.utf8.dropLast().allSatisfy { $0 == UInt8(ascii: "y") } && shown.hasSuffix("\n"),
                "the cell's text is shown whole, and ended")
    }

    @Test func aHeldPieceLongerThanTheLimitIsShown() {
        let message = "In[2]:1: Fatal error: " + String(repeating: "z", count: StandardErrorFilter.holdLimit + 10)
        let (shown, filter) = Self.filtered(message + "\n", piece: 65_536)
        #expect(shown == message + "\n")
        #expect(!filter.isHolding)
    }
}
