import HostProtocol

/// Turns pipe bytes into text without splitting a UTF-8 sequence across two messages.
struct UTF8Stream {
    private var pending: [UInt8] = []

    /// Adds bytes and returns the text that is complete.
    mutating func append(_ bytes: [UInt8]) -> String {
        pending += bytes
        var end = pending.count
        // Back up over an unfinished multi-byte sequence at the end (at most 3 bytes).
        var back = 0
        while back < min(3, pending.count) {
            let byte = pending[pending.count - 1 - back]
            if byte & 0xC0 == 0x80 { back += 1; continue }
            if byte & 0x80 != 0 {
                let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if back + 1 < needed { end = pending.count - 1 - back }
            }
            break
        }
        let text = String(decoding: pending[0..<end], as: UTF8.self)
        pending.removeFirst(end)
        return text
    }
}

/// Removes the Swift runtime's "Current stack trace:" block from a crashing cell's
/// standard error (its frames name generated code and addresses, never the user's
/// lines) and the generated module names from runtime messages.
struct StackTraceFilter {
    private var partialLine = ""
    private var inTrace = false

    /// Adds text and returns what should be shown. An unfinished last line is held until
    /// its end arrives or ``flush()`` is called.
    mutating func append(_ text: String) -> String {
        let combined = partialLine + text
        var lines = combined.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        partialLine = lines.removeLast()
        return lines.filter { keep($0) }.map { NameScrubber.userFacing($0) + "\n" }.joined()
    }

    /// Returns the held partial line.
    mutating func flush() -> String {
        defer { partialLine = "" }
        return keep(partialLine) ? NameScrubber.userFacing(partialLine) : ""
    }

    private mutating func keep(_ line: String) -> Bool {
        if line.hasPrefix("Current stack trace:") {
            inTrace = true
            return false
        }
        if inTrace, line.wholeMatch(of: /\s*[0-9]+\s+\S+\s+0x[0-9a-fA-F]+\s.*/) != nil { return false }
        inTrace = false
        return true
    }
}
