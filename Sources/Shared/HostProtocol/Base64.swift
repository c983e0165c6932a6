/// Standard base64 (RFC 4648, with padding) for binary comm buffers inside JSON frames.
/// The protocol module has no Foundation, so it carries its own.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// The base64 text of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(remaining > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            out.append(remaining > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of base64 `text`, or nil when it is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count / 4 * 3)
        var index = 0
        while index < characters.count {
            var group: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let character = characters[index + offset]
                if character == UInt8(ascii: "=") {
                    guard index + 4 == characters.count, offset >= 2 else { return nil }
                    padding += 1
                    group <<= 6
                    continue
                }
                guard padding == 0 else { return nil }
                let value = values[Int(character)]
                guard value != 0xFF else { return nil }
                group = group << 6 | UInt32(value)
            }
            out.append(UInt8(group >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(group >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(group & 0xFF)) }
            index += 4
        }
        return out
    }
}
