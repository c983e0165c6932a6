import GeneratedNames

/// A cell's standard output and error on their way to `stream` messages, in one pass over
/// the bytes: standard error through the ``StandardErrorFilter`` (which holds back text
/// shaped like the runtime's fatal message until something else comes or the run ends) and
/// the ``NameScrubbingStream``, both streams batched, and what passes the ``OutputLimit``
/// written to the ``OutputSpill`` files instead of the notebook.
///
/// Batching, as ipykernel's `OutStream` does: text is sent when ``flushInterval`` has passed
/// since the first byte that is waiting, when ``batchBytes`` are waiting, when the other
/// stream writes (so the two keep their order), and before anything else the cell shows.
/// Many short lines cost a few messages, not one each.
///
/// Thread rules: a value; used by one thread at a time.
struct CellStreams {
    /// A `stream` message to send.
    struct Chunk: Equatable, Sendable {
        var name: StreamName
        var text: String
    }

    /// How long text may wait for more before it is sent.
    static let flushInterval = Duration.milliseconds(50)
    /// How much text is sent in one message at most, when it is all there already.
    static let batchBytes = 1 << 20

    private var errorFilter = StandardErrorFilter()
    private var scrubber = NameScrubbingStream()
    private var batch = Batch()
    private var budget: Budget

    /// Streams for one cell.
    /// - Parameters:
    ///   - limit: how much the notebook is sent.
    ///   - spill: where the rest goes (made only when needed).
    init(limit: OutputLimit, spill: @escaping () -> OutputSpill) {
        budget = Budget(limit: limit, makeSpill: spill)
    }

    /// When the waiting text must be sent, if any is waiting.
    var deadline: ContinuousClock.Instant? { batch.since.map { $0 + Self.flushInterval } }

    /// Takes bytes the cell wrote and returns the messages due now.
    /// - Parameters:
    ///   - bytes: what the host's pipe gave.
    ///   - stream: which pipe.
    ///   - now: the time, for batching.
    mutating func take(_ bytes: [UInt8], from stream: StreamName, now: ContinuousClock.Instant) -> [Chunk] {
        var chunks: [Chunk] = []
        switch stream {
        case .stdout:
            // Standard error held back came first, and was the cell's own text.
            releaseHeld(now: now, into: &chunks)
            add(bytes, to: .stdout, now: now, into: &chunks)
        case .stderr:
            var shown: [UInt8] = []
            errorFilter.append(bytes[...], into: &shown)
            addError(shown, now: now, into: &chunks)
        }
        if let deadline, now >= deadline { chunks += flush() }
        return chunks
    }

    /// Returns everything waiting, as messages (when the ``deadline`` passed). Text held
    /// back from standard error stays held.
    mutating func flush() -> [Chunk] {
        guard let (name, text) = batch.take() else { return [] }
        return [Chunk(name: name, text: text)]
    }

    /// Returns everything waiting, held text included, before something else the cell
    /// shows (a display, a result, an input request): what came before it is shown first.
    mutating func flushBeforeEvent() -> [Chunk] {
        var chunks: [Chunk] = []
        releaseHeld(now: .now, into: &chunks)
        return chunks + flush()
    }

    /// Ends the run: an unfinished last line of standard error is decided, held text is
    /// taken out when it is the runtime's message in the host's crash report (the error
    /// shows it) or shown, everything is sent, and when output was cut, how much and where
    /// it went.
    /// - Parameter crash: the host's crash report, when the host died.
    mutating func finish(crash: CrashReport?) -> [Chunk] {
        var shown: [UInt8] = []
        errorFilter.finish(crash: crash, into: &shown)
        var scrubbed: [UInt8] = []
        scrubber.scrub(shown[...], into: &scrubbed)
        scrubber.finish(into: &scrubbed)
        var chunks: [Chunk] = []
        add(scrubbed, to: .stderr, now: .now, into: &chunks)
        chunks += flush()
        chunks += batch.finishText()
        if let summary = budget.summary() { chunks.append(Chunk(name: .stderr, text: summary)) }
        return chunks
    }

    /// Passes text on between cells (a thread an earlier cell started), at once.
    mutating func takeBetweenCells(_ bytes: [UInt8], from stream: StreamName) -> [Chunk] {
        take(bytes, from: stream, now: .now) + flush()
    }

    /// Shows text held back from standard error.
    private mutating func releaseHeld(now: ContinuousClock.Instant, into chunks: inout [Chunk]) {
        guard errorFilter.isHolding else { return }
        var shown: [UInt8] = []
        errorFilter.release(into: &shown)
        addError(shown, now: now, into: &chunks)
    }

    /// Adds standard error that passed the filter, without the generated names.
    private mutating func addError(_ shown: [UInt8], now: ContinuousClock.Instant, into chunks: inout [Chunk]) {
        guard !shown.isEmpty else { return }
        var scrubbed: [UInt8] = []
        scrubbed.reserveCapacity(shown.count)
        scrubber.scrub(shown[...], into: &scrubbed)
        add(scrubbed, to: .stderr, now: now, into: &chunks)
    }

    /// Adds text to the batch, within the budget; the rest goes to the spill files.
    private mutating func add(_ bytes: [UInt8], to stream: StreamName, now: ContinuousClock.Instant, into chunks: inout [Chunk]) {
        guard !bytes.isEmpty else { return }
        let (shown, notice) = budget.admit(bytes, from: stream)
        if batch.name != nil && batch.name != stream { chunks += flush() }
        batch.append(shown, to: stream, now: now)
        if let notice {
            chunks += flush()
            chunks.append(Chunk(name: .stderr, text: notice))
        }
        if batch.count >= Self.batchBytes { chunks += flush() }
    }
}

extension CellStreams {
    /// Text waiting to be sent, of one stream; only whole UTF-8 characters leave it.
    struct Batch {
        private(set) var name: StreamName?
        private(set) var since: ContinuousClock.Instant?
        private var bytes: [UInt8] = []
        /// The unfinished character at the end of each stream's text (at most 3 bytes).
        private var tails: [StreamName: [UInt8]] = [:]

        var count: Int { bytes.count }

        mutating func append(_ text: [UInt8], to stream: StreamName, now: ContinuousClock.Instant) {
            guard !text.isEmpty else { return }
            var text = text
            if let tail = tails.removeValue(forKey: stream) { text.insert(contentsOf: tail, at: 0) }
            let end = Self.endOfWholeCharacters(text)
            if end < text.count { tails[stream] = Array(text[end...]) }
            guard end > 0 else { return }
            name = stream
            if since == nil { since = now }
            bytes.append(contentsOf: text[..<end])
        }

        /// The waiting text, which is then gone.
        mutating func take() -> (StreamName, String)? {
            guard let name, !bytes.isEmpty else { return nil }
            defer {
                bytes.removeAll(keepingCapacity: true)
                self.name = nil
                since = nil
            }
            return (name, String(decoding: bytes, as: UTF8.self))
        }

        /// Unfinished characters left at the end of the run (shown as U+FFFD).
        mutating func finishText() -> [Chunk] {
            defer { tails.removeAll() }
            return StreamName.allCases.compactMap { stream in
                tails[stream].map { Chunk(name: stream, text: String(decoding: $0, as: UTF8.self)) }
            }
        }

        /// The length of the longest prefix that does not end inside a UTF-8 sequence.
        static func endOfWholeCharacters(_ bytes: [UInt8]) -> Int {
            var back = 0
            while back < min(3, bytes.count) {
                let byte = bytes[bytes.count - 1 - back]
                if byte & 0xC0 == 0x80 { back += 1; continue }
                if byte & 0x80 != 0 {
                    let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    if back + 1 < needed { return bytes.count - 1 - back }
                }
                break
            }
            return bytes.count
        }
    }

    /// What the notebook may still be sent, and the spill files for the rest.
    struct Budget {
        let limit: OutputLimit
        let makeSpill: () -> OutputSpill
        private var sent = 0
        /// What each stream showed, kept while the limit is not reached: a spill file starts
        /// with it, so it holds the stream's whole text.
        private var shownCopies: [StreamName: [UInt8]] = [:]
        private var spill: OutputSpill?
        private var spilled: [StreamName: Int] = [:]

        init(limit: OutputLimit, makeSpill: @escaping () -> OutputSpill) {
            self.limit = limit
            self.makeSpill = makeSpill
        }

        /// Splits text into what is shown and what goes to the stream's file; the first
        /// time anything goes to a file, also a notice for the notebook.
        mutating func admit(_ bytes: [UInt8], from stream: StreamName) -> (shown: [UInt8], notice: String?) {
            guard let maximum = limit.bytes else { return (bytes, nil) }
            let room = spill == nil ? max(0, maximum - sent) : 0
            if bytes.count <= room {
                sent += bytes.count
                shownCopies[stream, default: []].append(contentsOf: bytes)
                return (bytes, nil)
            }
            // Cut at the end of a whole character, so both parts stay readable.
            let cut = Batch.endOfWholeCharacters(Array(bytes.prefix(room)))
            let shown = Array(bytes[..<cut])
            sent += cut
            shownCopies[stream, default: []].append(contentsOf: shown)
            var notice: String?
            if spill == nil {
                spill = makeSpill()
                notice = "\n[Output limit: this cell has shown \(OutputLimit.size(sent)) (\(OutputLimit.environmentVariable) = \(limit)); the rest goes to a file]\n"
            }
            if spilled[stream] == nil, let copy = shownCopies.removeValue(forKey: stream) {
                spilled[stream] = 0
                spill?.write(copy, to: stream)
            }
            spilled[stream, default: 0] += bytes.count - cut
            spill?.write(bytes[cut...], to: stream)
            return (shown, notice)
        }

        /// How much was not shown and where it is, once output was cut.
        func summary() -> String? {
            guard let spill, !spilled.isEmpty else { return nil }
            let parts = StreamName.allCases.compactMap { stream -> String? in
                guard let count = spilled[stream] else { return nil }
                if let path = spill.path(of: stream) {
                    return "\(OutputLimit.size(count)) of \(stream.rawValue) not shown; all of it is in \(path)"
                }
                return "\(OutputLimit.size(count)) of \(stream.rawValue) not shown and not kept (\(spill.problem(of: stream) ?? "no file"))"
            }
            return "\n[Output limit: " + parts.joined(separator: "; ") + "]\n"
        }
    }
}
