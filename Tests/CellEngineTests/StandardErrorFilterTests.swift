@testable import CellEngine
import Testing

/// Standard error on its way to the notebook: crash frames and runtime messages taken out,
/// the runtime's stack trace dropped, everything else passed on, in one pass.
@Suite struct StandardErrorFilterTests {
    /// Runs text through a filter in pieces of `piece` bytes.
    static func filtered(_ text: String, piece: Int = .max, finish: Bool = false) -> (shown: String, filter: StandardErrorFilter) {
        var filter = StandardErrorFilter()
        var shown: [UInt8] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            filter.append(bytes[start..<end], into: &shown)
            start = end
        }
        if finish { filter.finish(into: &shown) }
        return (String(decoding: shown, as: UTF8.self), filter)
    }

    static let crashText = """
    before
    In[4]:2: Fatal error: Index out of range
    @@benchbook-crash-frame@@ 0x1a2b /tmp/benchbook-1/libCell4.so
    partial@@benchbook-crash-frame@@ 0x10 /usr/lib/libc.so.6
    after

    """

    @Test(arguments: [1, 2, 7, 64, Int.max])
    func frameLinesAndRuntimeMessagesAreTakenOutOfTheStream(piece: Int) {
        let (shown, filter) = Self.filtered(Self.crashText, piece: piece)
        // Text the cell wrote without a final newline before the first frame is shown.
        #expect(shown == "before\npartial\nafter\n")
        #expect(filter.crash.frames == [.init(offset: 0x1a2b, library: "/tmp/benchbook-1/libCell4.so"),
                                        .init(offset: 0x10, library: "/usr/lib/libc.so.6")])
        #expect(filter.crash.runtimeMessage == "Fatal error: Index out of range")
    }

    @Test func theRuntimesStackTraceIsDroppedAndItsMessageHeld() {
        let (shown, filter) = Self.filtered("""
        Cell4/In[5]:1: Fatal error: boom
        Current stack trace:
        0    libswiftCore.so    0x00007f 0 swift_reportError + 33
        1    libCell4.so   0x0000 <unavailable> + 12
        after
        partial
        """)
        #expect(shown == "after\n", "the unfinished line waits for its end")
        #expect(filter.heldBack() == "Cell4/In[5]:1: Fatal error: boom\n")
        var finished = filter
        var rest: [UInt8] = []
        finished.finish(into: &rest)
        #expect(String(decoding: rest, as: UTF8.self) == "partial")
    }

    @Test func aRuntimeMessageWithoutACrashIsShownAtTheEnd() {
        let (shown, filter) = Self.filtered("Swift/Array.swift:12: Fatal error: not really\n")
        #expect(shown.isEmpty)
        #expect(filter.heldBack() == "Swift/Array.swift:12: Fatal error: not really\n")
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

    /// After 20 MB of text without a newline, the runtime's message and the frames are
    /// still found, and the text before them is shown whole.
    @Test func aCrashAfterALongUnfinishedLineIsStillRecognised() {
        let text = String(repeating: "y", count: 20_000_000)
            + "Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range\n"
            + "@@benchbook-crash-frame@@ 0x2f /tmp/benchbook-9/libCell3.so\n"
        let (shown, filter) = Self.filtered(text, piece: 65_536)
        #expect(shown.utf8.count == 20_000_001 && shown.utf8.dropLast().allSatisfy { $0 == UInt8(ascii: "y") } && shown.hasSuffix("\n"),
                "the cell's text is shown whole, and ended")
        #expect(filter.crash.runtimeMessage == "Fatal error: Index out of range")
        #expect(filter.crash.frames == [.init(offset: 0x2f, library: "/tmp/benchbook-9/libCell3.so")])
    }

    @Test func aLongRuntimeMessageIsHeldWhole() {
        let message = "In[2]:1: Fatal error: " + String(repeating: "z", count: 5_000_000)
        let (shown, filter) = Self.filtered(message + "\nnext\n", piece: 65_536)
        #expect(shown == "next\n")
        #expect(filter.crash.messages.count == 1 && filter.crash.messages.first == message, "the message is held whole")
    }
}
