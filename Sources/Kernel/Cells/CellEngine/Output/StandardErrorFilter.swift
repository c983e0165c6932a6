/// A cell's standard error on its way to the notebook, in one pass over the bytes.
///
/// Text passes on as it arrives, except a piece shaped like the Swift runtime's fatal
/// message (`<file>:<line>: Fatal error: …`) and the runtime's "Current stack trace:" block
/// right after it: that is held until the cell writes something else (then it is shown, in
/// its place: the runtime traps right after its message, so anything after it means it was
/// the cell's own text) or the run ends. At the end, the host's crash report decides, from
/// the host's own channel (see ``CrashReport``): when the runtime wrote exactly that
/// message before the host died, it is taken out, since the error shows it once; otherwise
/// it is shown. Nothing is ever dropped for its shape alone, so a cell may print text that
/// looks like a crash.
///
/// Each byte is looked at a bounded number of times, whatever the length of its line: a
/// line is decided by its first bytes, and a long line passes on while it is written,
/// keeping back only its last ``window`` bytes. A held piece longer than ``holdLimit`` is
/// shown (a runtime message is short).
///
/// Thread rules: a value; used by one thread at a time.
struct StandardErrorFilter {
    /// How many of a long line's last bytes are kept back: a runtime message's
    /// `<file>:<line>: ` prefix before its marker is shorter.
    static let window = 4096
    /// The most text held at once.
    static let holdLimit = 1 << 20

    /// The current line's bytes that are not decided yet (all of it, when none was shown).
    private var line: [UInt8] = []
    /// Part of the current line was shown already.
    private var lineStarted = false
    /// The current line belongs to the held piece (a runtime message started in it).
    private var holdingLine = false
    /// Text held back: a runtime-message-shaped piece and the trace lines after it.
    private var held: [UInt8] = []
    /// The held piece started inside a line whose first part was shown (taking it out then
    /// ends that line).
    private var heldAfterText = false

    /// True while text is held back.
    var isHolding: Bool { !held.isEmpty || holdingLine }

    /// Takes the next bytes and appends what can be shown to `shown`.
    mutating func append(_ bytes: ArraySlice<UInt8>, into shown: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                if let newline = Bytes.find(UInt8(ascii: "\n"), in: buffer, from: start) {
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<newline]))
                    endLine(into: &shown)
                    start = newline + 1
                } else {
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
                    start = buffer.count
                    if holdingLine {
                        if held.count + line.count > Self.holdLimit { release(into: &shown) }
                    } else if line.count > 2 * Self.window {
                        passLongLine(into: &shown)
                    }
                }
            }
        }
    }

    /// Shows what is held: the cell wrote something after it, so it is the cell's text.
    mutating func release(into shown: inout [UInt8]) {
        shown.append(contentsOf: held)
        held.removeAll()
        heldAfterText = false
        if holdingLine {
            // The rest of the held line passes on as it comes.
            shown.append(contentsOf: line)
            line.removeAll()
            holdingLine = false
            lineStarted = true
        }
    }

    /// Ends the text: the unfinished last line is decided as if it had ended (without a
    /// newline of its own), and what is held is taken out when it is the runtime's message
    /// in `crash`, or shown.
    /// - Parameter crash: the host's crash report, when it died.
    mutating func finish(crash: CrashReport?, into shown: inout [UInt8]) {
        var unfinished = false
        if !line.isEmpty || holdingLine {
            endLine(into: &shown)
            unfinished = true
        }
        if let message = crash?.writtenMessage, !message.isEmpty, let start = Self.find(Array(message.utf8), in: held) {
            // What is held before the message is the cell's (whole lines); the message and
            // the trace block after it are the runtime's.
            shown.append(contentsOf: held[..<start])
            // The cell's text on the message's line had no newline: end it.
            if start == 0 ? heldAfterText : held[start - 1] != UInt8(ascii: "\n") { shown.append(UInt8(ascii: "\n")) }
            held.removeAll()
            heldAfterText = false
            return
        }
        shown.append(contentsOf: held)
        held.removeAll()
        heldAfterText = false
        // The line had no newline of its own.
        if unfinished, shown.last == UInt8(ascii: "\n") { shown.removeLast() }
    }

    // MARK: Lines

    private mutating func endLine(into shown: inout [UInt8]) {
        defer {
            line.removeAll(keepingCapacity: line.count <= 2 * Self.window)
            lineStarted = false
            holdingLine = false
        }
        if holdingLine {
            held.append(contentsOf: line)
            held.append(UInt8(ascii: "\n"))
            holdingLine = false
            if held.count > Self.holdLimit { release(into: &shown) }
            return
        }
        if !held.isEmpty {
            if !lineStarted && (line.starts(with: Self.traceHeader) || Self.isTraceFrame(line)) {
                held.append(contentsOf: line)
                held.append(UInt8(ascii: "\n"))
                if held.count > Self.holdLimit { release(into: &shown) }
                return
            }
            release(into: &shown)
        }
        if let start = Self.firstMessage(in: line, lineStarted: lineStarted) {
            shown.append(contentsOf: line[..<start])
            heldAfterText = start > 0 || lineStarted
            held.append(contentsOf: line[start...])
            held.append(UInt8(ascii: "\n"))
            if held.count > Self.holdLimit { release(into: &shown) }
            return
        }
        shown.append(contentsOf: line)
        shown.append(UInt8(ascii: "\n"))
    }

    /// Shows all but the last ``window`` bytes of a long unfinished line, unless a runtime
    /// message starts in it: then the text before it is shown and the rest is held.
    private mutating func passLongLine(into shown: inout [UInt8]) {
        if !held.isEmpty { release(into: &shown) }
        if let start = Self.firstMessage(in: line, lineStarted: lineStarted) {
            shown.append(contentsOf: line[..<start])
            heldAfterText = start > 0 || lineStarted
            line.removeFirst(start)
            holdingLine = true
            return
        }
        let cut = line.count - Self.window
        shown.append(contentsOf: line[..<cut])
        line.removeFirst(cut)
        lineStarted = true
    }

    private static let traceHeader = Array("Current stack trace:".utf8)
    private static let messageMarkers = ["Fatal error", "fatal error", "Precondition failed", "Assertion failed"]
        .map { Array($0.utf8) }

    /// Where a runtime-message-shaped piece starts in a line: its words at the start of the
    /// line, or the `<file>:<line>: ` written before them (after text the cell wrote without
    /// a newline, possibly). Words elsewhere in a line are the cell's.
    static func firstMessage(in line: [UInt8], lineStarted: Bool) -> Int? {
        let found = line.withUnsafeBufferPointer { buffer in messageMarkers.compactMap { Bytes.find($0, in: buffer) }.min() }
        guard let marker = found else { return nil }
        let start = locationStart(in: line, before: marker)
        if start == marker && (marker > 0 || lineStarted) { return nil }
        return start
    }

    /// The start of `<file>:<line>: ` just before `index`, or `index` when it is not there.
    ///
    /// The runtime's file is a cell's (`In[7]`, `Cell4/In[7]`) or the standard library's
    /// (`Swift/Array.swift`); text the cell wrote without a newline can run into it, so the
    /// file starts at the first of those forms in the word before `:<line>: `, else at the
    /// word's start (at most ``longestFile`` bytes back).
    private static func locationStart(in line: [UInt8], before index: Int) -> Int {
        var position = index
        guard position >= 2, line[position - 1] == UInt8(ascii: " "), line[position - 2] == UInt8(ascii: ":") else { return index }
        position -= 2
        let digitsEnd = position
        while position > 0, line[position - 1] >= 0x30, line[position - 1] <= 0x39 { position -= 1 }
        guard position < digitsEnd, position > 0, line[position - 1] == UInt8(ascii: ":") else { return index }
        let fileEnd = position - 1
        var wordStart = fileEnd
        while wordStart > 0, fileEnd - wordStart < longestFile, line[wordStart - 1] != UInt8(ascii: " ") { wordStart -= 1 }
        let word = line[wordStart..<fileEnd]
        let anchors = fileStarts.compactMap { anchor in
            word.indices.first { word[$0...].starts(with: anchor) }
        }
        return anchors.min() ?? wordStart
    }

    /// How far back the runtime's file name is looked for.
    private static let longestFile = 256
    /// How the runtime's file names start.
    private static let fileStarts = ["Cell", "In[", "Swift/"].map { Array($0.utf8) }

    /// The first position of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        return haystack.withUnsafeBufferPointer { Bytes.find(needle, in: $0) }
    }

    /// A frame line of the runtime's stack trace: `<index> <library> 0x<address> <symbol>`.
    static func isTraceFrame(_ line: [UInt8]) -> Bool {
        var index = line.startIndex
        func skip(_ predicate: (UInt8) -> Bool) -> Int {
            let start = index
            while index < line.endIndex && predicate(line[index]) { index += 1 }
            return index - start
        }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        _ = skip(isSpace)
        guard skip({ $0 >= 0x30 && $0 <= 0x39 }) > 0, skip(isSpace) > 0, skip({ !isSpace($0) }) > 0,
              skip(isSpace) > 0, line[index...].starts(with: Array("0x".utf8)) else { return false }
        index += 2
        return skip({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) > 0
            && index < line.endIndex && isSpace(line[index])
    }
}
