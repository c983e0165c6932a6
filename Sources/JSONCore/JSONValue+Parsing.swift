/// Why JSON text could not be read.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, for example "unterminated string".
    public var reason: String
    /// The byte offset in the input where reading stopped.
    public var offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects ``init(parsing:)`` accepts; deeper input
    /// is refused instead of exhausting the stack.
    public static let maximumNestingDepth = 512

    /// Reads one JSON value from UTF-8 text (RFC 8259), with nothing but whitespace after it.
    /// - Parameter bytes: the text's UTF-8 bytes.
    /// - Throws: ``JSONParseError`` for text that is not JSON or nests deeper than
    ///   ``maximumNestingDepth``.
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(JSONParseError) {
        let storage = Array(bytes)
        let parsed: Result<JSONValue, JSONParseError> = storage.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer)
            return Result { () throws(JSONParseError) in try reader.readDocument() }
        }
        self = try parsed.get()
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
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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
}
