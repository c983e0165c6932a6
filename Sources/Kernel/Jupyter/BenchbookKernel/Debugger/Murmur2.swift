/// MurmurHash2 (32-bit, x86), the hash JupyterLab's debugger and ipykernel use to name the
/// file of a cell: both sides hash the cell's UTF-8 text with the same seed, so the path
/// the kernel writes (`dumpCell`) is the path the front end computes for the cell's
/// gutter breakpoints without asking.
enum Murmur2 {
    /// The seed JupyterLab and ipykernel use (`debugInfo`'s `hashSeed`).
    static let seed: UInt32 = 0xC70F_6907

    /// The hash of `text`'s UTF-8 bytes.
    /// - Parameters:
    ///   - text: the cell's text, exactly as the front end sends it.
    ///   - seed: the hash seed.
    static func hash(_ text: String, seed: UInt32 = Murmur2.seed) -> UInt32 {
        hash(Array(text.utf8), seed: seed)
    }

    /// The hash of `bytes`.
    static func hash(_ bytes: [UInt8], seed: UInt32) -> UInt32 {
        let multiplier: UInt32 = 0x5BD1_E995
        var h = seed ^ UInt32(truncatingIfNeeded: bytes.count)
        let whole = bytes.count & ~3
        var index = 0
        while index < whole {
            var k = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                | UInt32(bytes[index + 3]) << 24
            k &*= multiplier
            k ^= k >> 24
            k &*= multiplier
            h &*= multiplier
            h ^= k
            index += 4
        }
        let rest = bytes.count & 3
        if rest > 0 {
            var k: UInt32 = 0
            if rest == 3 { k ^= UInt32(bytes[whole + 2]) << 16 }
            if rest >= 2 { k ^= UInt32(bytes[whole + 1]) << 8 }
            k ^= UInt32(bytes[whole])
            h ^= k
            h &*= multiplier
        }
        h ^= h >> 13
        h &*= multiplier
        h ^= h >> 15
        return h
    }
}
