/// Why JSON text could not be read.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, for example "unterminated string".
    public var reason: String
    /// The byte offset in the input where reading stopped.
    public var offset: Int
    /// True when the text was refused for a limit the caller set (too many values), not
    /// for its syntax.
    public var exceededLimit = false

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects ``init(parsing:)`` accepts; deeper input
    /// is refused instead of exhausting the stack.
    public static let maximumNestingDepth = 512

    /// Reads one JSON value from UTF-8 text (RFC 8259), with nothing but whitespace after it.
    /// - Parameters:
    ///   - bytes: the text's UTF-8 bytes.
    ///   - maximumValues: refuse text with more values than this (each object, array,
    ///     string, number, boolean and null counts one), so that the work and memory one
    ///     input can cost are bounded; nil for no limit.
    ///   - validatingUTF8: refuse bytes that are not UTF-8 inside strings (without it they
    ///     are read as U+FFFD).
    /// - Throws: ``JSONParseError`` for text that is not JSON, nests deeper than
    ///   ``maximumNestingDepth`` or passes a limit.
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes, maximumValues: Int? = nil,
                                          validatingUTF8: Bool = false) throws(JSONParseError) {
        let limits = JSONReader.Limits(remainingValues: maximumValues ?? .max, validatesUTF8: validatingUTF8)
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in Self.parse(buffer, limits: limits) }
            ?? Array(bytes).withUnsafeBufferPointer { Self.parse($0, limits: limits) }
        self = try parsed.get().value
    }

    /// ``init(parsing:maximumValues:validatingUTF8:)``, also returning how many values the
    /// text held (for a budget shared by several texts).
    public static func parsing<Bytes: Collection<UInt8>>(_ bytes: Bytes, maximumValues: Int,
                                                         validatingUTF8: Bool) throws(JSONParseError) -> (value: JSONValue, count: Int) {
        let limits = JSONReader.Limits(remainingValues: maximumValues, validatesUTF8: validatingUTF8)
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in Self.parse(buffer, limits: limits) }
            ?? Array(bytes).withUnsafeBufferPointer { Self.parse($0, limits: limits) }
        let result = try parsed.get()
        return (result.value, maximumValues - result.remaining)
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>,
                              limits: JSONReader.Limits) -> Result<(value: JSONValue, remaining: Int), JSONParseError> {
        var reader = JSONReader(bytes: buffer, limits: limits)
        return Result { () throws(JSONParseError) in
            let value = try reader.readDocument()
            return (value, reader.limits.remainingValues)
        }
    }

    /// Reads one JSON value from text.
    /// - Parameter text: JSON text.
    /// - Throws: ``JSONParseError``.
    public init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8))
    }
}

/// A recursive-descent reader over UTF-8 bytes.
private struct JSONReader {
    /// What the caller bounded.
    struct Limits {
        /// Values still allowed.
        var remainingValues: Int
        var validatesUTF8: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    var depth = 0
    var limits: Limits

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func readDocument() throws(JSONParseError) -> JSONValue {
        let value = try readValue()
        skipWhitespace()
        guard offset == bytes.count else { throw failure("unexpected text after the value") }
        return value
    }

    private func failure(_ reason: String) -> JSONParseError { JSONParseError(reason: reason, offset: offset) }

    private mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
    }

    private mutating func readValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard offset < bytes.count else { throw failure("unexpected end of input") }
        guard limits.remainingValues > 0 else {
            var error = failure("more values than the limit allows")
            error.exceededLimit = true
            throw error
        }
        limits.remainingValues -= 1
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        default: return .number(try readNumber())
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONValue.maximumNestingDepth {
            throw failure("nested deeper than \(JSONValue.maximumNestingDepth) levels")
        }
    }

    private mutating func readObject() throws(JSONParseError) -> JSONValue {
        try enter()
        offset += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try readString()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            offset += 1
            members[key] = try readValue()
            skipWhitespace()
            guard offset < bytes.count else { throw failure("unterminated object") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            guard bytes[offset] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
            offset += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func readArray() throws(JSONParseError) -> JSONValue {
        try enter()
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try readValue())
            skipWhitespace()
            guard offset < bytes.count else { throw failure("unterminated array") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            guard bytes[offset] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
            offset += 1
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func readLiteral(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw failure("unexpected end of input") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
            throw failure("unknown literal")
        }
        offset += count
    }

    private mutating func readNumber() throws(JSONParseError) -> Double {
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) { offset += 1 }
            return offset - first
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard digits() > 0 else { offset = start; throw failure("expected a value") }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw failure("expected digits after '.'") }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw failure("expected digits in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text) else { throw failure("unreadable number") }
        return value
    }

    private mutating func readString() throws(JSONParseError) -> String {
        offset += 1
        var scalars: [UInt8] = []
        var runStart = offset
        while true {
            guard offset < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                offset += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte >= 0x80 && limits.validatesUTF8 {
                let length = Self.utf8Length(at: offset, in: bytes)
                guard length > 0 else { throw failure("bytes that are not UTF-8 in a string") }
                offset += length
                continue
            }
            guard byte == UInt8(ascii: "\\") else { offset += 1; continue }
            scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
            offset += 1
            guard offset < bytes.count else { throw failure("unterminated escape") }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"): scalars.append(contentsOf: try readUnicodeEscape())
            default: throw failure("unknown escape")
            }
            runStart = offset
        }
    }

    /// The UTF-8 bytes of a `\uXXXX` escape (the `\u` already read), joining a surrogate
    /// pair; a lone surrogate becomes U+FFFD.
    private mutating func readUnicodeEscape() throws(JSONParseError) -> [UInt8] {
        var code = try readHex4()
        if (0xD800...0xDBFF).contains(code), offset + 6 <= bytes.count,
           bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
            let saved = offset
            offset += 2
            let low = try readHex4()
            if (0xDC00...0xDFFF).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
                offset = saved
            }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("bad hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// The length of the UTF-8 sequence at `index` (2 to 4 bytes), or 0 when it is not
    /// valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are not).
    static func utf8Length(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let lead = bytes[index]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC0...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF7: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for next in bytes[(index + 1)..<(index + length)] {
            guard next & 0xC0 == 0x80 else { return 0 }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return 0 }
        return length
    }
}
