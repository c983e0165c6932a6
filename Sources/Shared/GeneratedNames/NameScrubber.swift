#if canImport(Glibc)
import Glibc
#endif

/// Removes the names a user never wrote from text they will read: compiler messages,
/// runtime messages, type names in descriptions.
///
/// The only place that knows how generated names look in text; every rule is built from
/// the names in ``RuntimeNames``. The rules, each applied to a whole word (a run of
/// letters, digits, `_` and non-ASCII bytes):
/// - `Cell12` followed by `.` or `/` (a module qualifier or a cell's file path) is removed
///   with that character: `Cell12.Point` reads `Point`, `Cell12/In[3]` reads `In[3]`;
/// - `__benchbook_entry()` (the generated entry point) reads `the cell`;
/// - `_BenchbookCell.` and the letters of the member after it read `the cell`.
///
/// Compiler messages (``compilerMessage(_:)``) also name the storage of generated code,
/// which no value a cell sees has: a local scope's (`__bb_scope_total.result.1`) and a
/// variable's declared without a value (`__bb_unset_names.value`) read `value`, and the
/// scope's type (`_BenchbookScope<[Int]>`) reads as the type it holds (`[Int]`).
public enum NameScrubber {
    /// The text with generated names replaced (see the type's rules).
    /// - Parameter text: a message or description.
    public static func userFacing(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "C")) || text.utf8.contains(UInt8(ascii: "_")) else { return text }
        var scrubber = NameScrubbingStream()
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        scrubber.scrub(Array(text.utf8)[...], into: &out)
        scrubber.finish(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A compiler message in the user's terms: ``userFacing(_:)``'s rules, then those for
    /// the storage of generated code (see the type's rules).
    /// - Parameter text: a message of the compiler about generated code.
    public static func compilerMessage(_ text: String) -> String {
        let scrubbed = userFacing(text)
        guard scrubbed.contains(RuntimeNames.scopePrefix) || scrubbed.contains(RuntimeNames.unsetPrefix)
            || scrubbed.contains(RuntimeNames.scopeType) else { return scrubbed }
        // Built for each message, as the literals they replace were: a regex is not Sendable,
        // and such messages are rare (a cell that does not compile).
        return scrubbed
            .replacing(StorageNames.regex(StorageNames.scope), with: "value")
            .replacing(StorageNames.regex(StorageNames.unset), with: "value")
            .replacing(StorageNames.regex(StorageNames.scopeType)) { match in match.output[1].substring.map(String.init) ?? "" }
    }

    /// The patterns of the storage names in compiler messages, from ``RuntimeNames``.
    private enum StorageNames {
        /// `__bb_scope_total`, `__bb_scope_total.result`, `__bb_scope_total.result.1`.
        static let scope =
            literal(RuntimeNames.scopePrefix) + #"\w+(\."# + literal(RuntimeNames.scopeResult) + #"(\.[0-9]+)?)?"#
        /// `__bb_unset_names`, `__bb_unset_names.value`.
        static let unset = literal(RuntimeNames.unsetPrefix) + #"\w+(\."# + literal(RuntimeNames.unsetValue) + ")?"
        /// `_BenchbookScope<[Int]>`, capturing `[Int]`.
        static let scopeType = literal(RuntimeNames.scopeType) + "<(.*)>"

        static func regex(_ text: String) -> Regex<AnyRegexOutput> {
            do { return try Regex(text) } catch { fatalError("NameScrubber's pattern \(text) does not compile: \(error)") }
        }

        /// `name` as a pattern that matches it as it is.
        private static func literal(_ name: String) -> String {
            name.map { $0.isLetter || $0.isNumber || $0 == "_" ? String($0) : "\\" + String($0) }.joined()
        }
    }
}

/// ``NameScrubber``'s rules applied to text that arrives in pieces (a cell's standard
/// error), in one pass over the bytes and with bounded memory: only a word that can still
/// become a generated name (at most ``longestCandidate`` bytes) and the one or two
/// characters that decide it are held between pieces.
public struct NameScrubbingStream: Sendable {
    /// The longest word held back: a generated name is never longer.
    public static let longestCandidate = 32

    private enum State: Sendable {
        /// Between words.
        case between
        /// In a word that can still become a generated name; its bytes are in `held`.
        case candidate
        /// In a word that cannot: its bytes pass through until it ends.
        case otherWord
        /// After `__benchbook_entry(`, waiting for `)`.
        case entryCall
        /// After `_BenchbookCell.`, waiting for the member's first letter.
        case runtimeDot
        /// In the member's letters after `_BenchbookCell.`, dropping them.
        case runtimeMember
    }

    private var state = State.between
    private var held: [UInt8] = []

    /// Creates a stream at the start of a text.
    public init() {}

    /// Takes the next piece of text and appends what is ready to show to `out`.
    /// - Parameters:
    ///   - bytes: UTF-8 text, cut anywhere.
    ///   - out: receives the scrubbed text that can no longer change.
    public mutating func scrub(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + bytes.count)
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                switch state {
                case .between, .otherWord:
                    index = passPlain(buffer, from: index, into: &out)
                    if index < buffer.count {
                        take(buffer[index], into: &out)
                        index += 1
                    }
                default:
                    take(buffer[index], into: &out)
                    index += 1
                }
            }
        }
    }

    /// Copies the bytes from `start` that pass through as they are (between words and in
    /// words that cannot become a generated name) in one go, up to the next byte that
    /// starts a candidate (`C` or `_` after a non-word byte).
    /// - Returns: the index of that byte, or the buffer's end.
    private mutating func passPlain(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, into out: inout [UInt8]) -> Int {
        // The next `C` and the next `_`, each found with memchr and looked for again only
        // once passed, so a text full of one of them stays linear.
        var nextC = Self.find(UInt8(ascii: "C"), in: buffer, from: start)
        var nextUnderscore = Self.find(UInt8(ascii: "_"), in: buffer, from: start)
        var end = buffer.count
        while true {
            let next = min(nextC, nextUnderscore)
            guard next < buffer.count else { break }
            let afterWordByte = next > start ? Self.isWordByte(buffer[next - 1]) : { if case .otherWord = state { true } else { false } }()
            if !afterWordByte {
                end = next
                break
            }
            if next == nextC { nextC = Self.find(UInt8(ascii: "C"), in: buffer, from: next + 1) }
            else { nextUnderscore = Self.find(UInt8(ascii: "_"), in: buffer, from: next + 1) }
        }
        guard end > start else { return start }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
        state = Self.isWordByte(buffer[end - 1]) ? .otherWord : .between
        return end
    }

    /// The index of the first `byte` at or after `start`, or the buffer's end.
    private static func find(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < buffer.count, let base = buffer.baseAddress,
              let found = memchr(base + start, Int32(byte), buffer.count - start) else { return buffer.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Ends the text: appends what was held, as the rules read it at the end of a text.
    /// - Parameter out: receives the rest of the scrubbed text.
    public mutating func finish(into out: inout [UInt8]) {
        switch state {
        case .candidate, .entryCall, .runtimeDot:
            out.append(contentsOf: held)
        case .runtimeMember:
            out.append(contentsOf: "the cell".utf8)
        case .between, .otherWord:
            break
        }
        held.removeAll(keepingCapacity: true)
        state = .between
    }

    private mutating func take(_ byte: UInt8, into out: inout [UInt8]) {
        switch state {
        case .between:
            startWordIfAny(byte, into: &out)
        case .otherWord:
            out.append(byte)
            if !Self.isWordByte(byte) { state = .between }
        case .candidate:
            if Self.isWordByte(byte) {
                held.append(byte)
                if !Self.canBecomeGeneratedName(held) {
                    out.append(contentsOf: held)
                    held.removeAll(keepingCapacity: true)
                    state = .otherWord
                }
                return
            }
            endCandidate(before: byte, into: &out)
        case .entryCall:
            held.removeAll(keepingCapacity: true)
            if byte == UInt8(ascii: ")") {
                out.append(contentsOf: "the cell".utf8)
                state = .between
            } else {
                out.append(contentsOf: Self.entry + [UInt8(ascii: "(")])
                state = .between
                take(byte, into: &out)
            }
        case .runtimeDot:
            if Self.isLetter(byte) {
                held.removeAll(keepingCapacity: true)
                state = .runtimeMember
            } else {
                out.append(contentsOf: held)
                held.removeAll(keepingCapacity: true)
                state = .between
                take(byte, into: &out)
            }
        case .runtimeMember:
            if Self.isLetter(byte) { return }
            out.append(contentsOf: "the cell".utf8)
            // What follows the member's letters (`2` of `evaluate2`, `(`) is read afresh;
            // digits and `_` continue a word that cannot be a generated name.
            state = Self.isWordByte(byte) ? .otherWord : .between
            out.append(byte)
        }
    }

    /// A byte after a non-word byte: the start of a candidate, of another word, or neither.
    private mutating func startWordIfAny(_ byte: UInt8, into out: inout [UInt8]) {
        if byte == UInt8(ascii: "C") || byte == UInt8(ascii: "_") {
            held.append(byte)
            state = .candidate
        } else {
            out.append(byte)
            state = Self.isWordByte(byte) ? .otherWord : .between
        }
    }

    /// A candidate word ended at `byte` (not a word byte): decides it.
    private mutating func endCandidate(before byte: UInt8, into out: inout [UInt8]) {
        let word = held
        held.removeAll(keepingCapacity: true)
        state = .between
        if Self.isCellModule(word) {
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") { return }
            out.append(contentsOf: word)
            out.append(byte)
        } else if word.elementsEqual(Self.entry) && byte == UInt8(ascii: "(") {
            held = Self.entry + [UInt8(ascii: "(")]
            state = .entryCall
        } else if word.elementsEqual(Self.runtime) && byte == UInt8(ascii: ".") {
            held = Self.runtime + [UInt8(ascii: ".")]
            state = .runtimeDot
        } else {
            out.append(contentsOf: word)
            out.append(byte)
        }
    }

    // MARK: The generated names (``RuntimeNames``)

    /// `Cell`, of `Cell12`.
    private static let cell = Array(RuntimeNames.modulePrefix.utf8)
    /// `__benchbook_entry`.
    private static let entry = Array(RuntimeNames.entryFunction.utf8)
    /// `_BenchbookCell`.
    private static let runtime = Array(RuntimeNames.cellRuntime.utf8)
    /// More digits than any cell number or storage index has.
    private static let maximumDigits = 18

    private static func isCellModule(_ word: [UInt8]) -> Bool { isPrefixAndDigits(word, cell) }

    /// `prefix` followed by 1 to ``maximumDigits`` digits.
    private static func isPrefixAndDigits(_ word: [UInt8], _ prefix: [UInt8]) -> Bool {
        word.count > prefix.count && word.count <= prefix.count + maximumDigits && word.starts(with: prefix)
            && word[prefix.count...].allSatisfy(isDigit)
    }

    /// True while `word` is the start of a word some rule matches.
    private static func canBecomeGeneratedName(_ word: [UInt8]) -> Bool {
        guard word.count <= longestCandidate else { return false }
        return (word.count <= cell.count ? cell.starts(with: word) : isPrefixAndDigits(word, cell))
            || [entry, runtime].contains { $0.starts(with: word) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    /// Letters, digits, `_`, and every byte of a non-ASCII character.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
