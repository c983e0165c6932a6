/// A cell's standard error on its way to the notebook, in one pass over the bytes: the
/// host's crash frames and the Swift runtime's fatal messages are taken out for the
/// ``CrashReport`` (shown once, in the error), the runtime's "Current stack trace:" block
/// is dropped (its frames name generated code and addresses, never the user's lines), and
/// everything else passes on as it arrives.
///
/// Each byte is looked at a bounded number of times, whatever the length of its line: a
/// line is decided by its first bytes, and a long line passes on while it is written,
/// keeping back only its last ``window`` bytes. A crash frame or a runtime message found
/// inside a line (after text the cell wrote without a final newline) ends the shown part of
/// the line there.
///
/// Thread rules: a value; used by one thread at a time.
struct StandardErrorFilter {
    /// How many of a long line's last bytes are kept back: a runtime message's
    /// `<file>:<line>: ` prefix before its marker is shorter.
    static let window = 4096

    /// The crash frames and runtime messages seen so far.
    private(set) var crash = CrashReport()

    /// The current line's bytes that are not decided yet (all of it, when none was shown).
    private var line: [UInt8] = []
    /// Part of the current line was shown already.
    private var lineStarted = false
    /// The rest of the current line belongs to the crash report.
    private var holding: CrashReport.Marker?
    /// The previous line was "Current stack trace:" or one of its frames.
    private var inTrace = false

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
                    if holding == nil && line.count > 2 * Self.window { passLongLine(into: &shown) }
                }
            }
        }
    }

    /// Ends the text: the unfinished last line is decided as if it had ended.
    mutating func finish(into shown: inout [UInt8]) {
        guard !line.isEmpty || holding != nil || lineStarted else { return }
        let shownBefore = shown.count
        endLine(into: &shown)
        // The line had no newline of its own.
        if shown.count > shownBefore, shown.last == UInt8(ascii: "\n") { shown.removeLast() }
    }

    /// The runtime messages held back, for a run that ended without a crash.
    func heldBack() -> String {
        crash.messages.map { $0 + "\n" }.joined()
    }

    /// The held-back messages so far, which are then forgotten (for output between cells,
    /// where no error shows them).
    mutating func takeHeldBack() -> String {
        defer { crash = CrashReport() }
        return heldBack()
    }

    // MARK: Lines

    private mutating func endLine(into shown: inout [UInt8]) {
        defer {
            line.removeAll(keepingCapacity: line.count <= 2 * Self.window)
            lineStarted = false
            holding = nil
        }
        if let holding {
            crash.take(line, as: holding)
            return
        }
        if !lineStarted {
            if line.starts(with: Self.traceHeader) {
                inTrace = true
                return
            }
            if inTrace && Self.isTraceFrame(line) { return }
        }
        inTrace = false
        if let (marker, start) = CrashReport.firstMarker(in: line, lineStarted: lineStarted) {
            if start > 0 || lineStarted {
                shown.append(contentsOf: line[..<start])
                shown.append(UInt8(ascii: "\n"))
            }
            crash.take(line[start...], as: marker)
            return
        }
        shown.append(contentsOf: line)
        shown.append(UInt8(ascii: "\n"))
    }

    /// Shows all but the last ``window`` bytes of a long unfinished line, unless a crash
    /// frame or runtime message starts in it.
    private mutating func passLongLine(into shown: inout [UInt8]) {
        inTrace = false
        if let (marker, start) = CrashReport.firstMarker(in: line, lineStarted: lineStarted) {
            if start > 0 || lineStarted {
                shown.append(contentsOf: line[..<start])
                shown.append(UInt8(ascii: "\n"))
            }
            line.removeFirst(start)
            lineStarted = false
            holding = marker
            return
        }
        let cut = line.count - Self.window
        shown.append(contentsOf: line[..<cut])
        line.removeFirst(cut)
        lineStarted = true
    }

    private static let traceHeader = Array("Current stack trace:".utf8)

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
