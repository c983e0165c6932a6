extension JSONValue {
    /// The value as JSON text (UTF-8): `/` unescaped, control characters escaped. Integral
    /// numbers below 10^15 are written without a fraction; NaN and infinities, which JSON
    /// cannot hold, are written as `null`.
    /// - Parameters:
    ///   - sortingKeys: write object members in key order (stable output for signing and
    ///     tests); otherwise in the dictionary's order.
    ///   - indented: one member or element a line, indented by two spaces a level, with
    ///     `": "` after a member name (for files people read); otherwise compact, with no
    ///     spaces. Empty arrays and objects are written `[]` and `{}` either way.
    public func serialized(sortingKeys: Bool = false, indented: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out, sortingKeys: sortingKeys, indentation: indented ? 0 : nil)
        return out
    }

    /// The value as JSON text; see ``serialized(sortingKeys:indented:)``.
    /// - Parameters:
    ///   - sortingKeys: write object members in key order.
    ///   - indented: one member or element a line, indented by two spaces a level.
    public func serializedText(sortingKeys: Bool = false, indented: Bool = false) -> String {
        String(decoding: serialized(sortingKeys: sortingKeys, indented: indented), as: UTF8.self)
    }

    /// Writes the value; `indentation` is the current level when indenting, nil for compact text.
    private func write(to out: inout [UInt8], sortingKeys: Bool, indentation: Int?) {
        let inner = indentation.map { $0 + 1 }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): Self.writeNumber(value, to: &out)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeLineBreak(inner, to: &out)
                element.write(to: &out, sortingKeys: sortingKeys, indentation: inner)
            }
            if !elements.isEmpty { Self.writeLineBreak(indentation, to: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let ordered = sortingKeys ? members.sorted { $0.key < $1.key } : Array(members)
            for (index, member) in ordered.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeLineBreak(inner, to: &out)
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if inner != nil { out.append(UInt8(ascii: " ")) }
                member.value.write(to: &out, sortingKeys: sortingKeys, indentation: inner)
            }
            if !members.isEmpty { Self.writeLineBreak(indentation, to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A newline and two spaces per level, when indenting (`level` not nil).
    private static func writeLineBreak(_ level: Int?, to out: inout [UInt8]) {
        guard let level else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private static func writeNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { out.append(contentsOf: "null".utf8); return }
        if value.rounded() == value, abs(value) < 1e15 {
            out.append(contentsOf: String(Int64(value)).utf8)
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }

    private static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + 1)
            // Runs of bytes that need no escape are copied in one go; eight bytes at a time
            // are checked for one that does.
            var runStart = 0
            var index = 0
            while index < bytes.count {
                if index + 8 <= bytes.count,
                   !mayNeedEscape(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    writeEscape(byte, to: &out)
                    runStart = index + 1
                }
                index += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// True when one of the eight bytes of `word` may be a control character, `"` or `\\`
    /// (no false negatives: the classic "has a zero byte" and "has a byte below n" tests).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let below0x20 = (word &- ones &* 0x20) & ~word & highs != 0
        return below0x20 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// The escape of a byte JSON does not allow in a string as it is.
    private static func writeEscape(_ byte: UInt8, to out: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""): out.append(backslash); out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(backslash); out.append(backslash)
        case 0x0A: out.append(backslash); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(backslash); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(backslash); out.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: Array("\\u00".utf8))
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
    }
}
