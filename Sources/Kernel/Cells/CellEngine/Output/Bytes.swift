#if canImport(Glibc)
import Glibc
#endif

/// Searches in bytes with the C library's vectorised `memchr` and `memmem`: the output
/// path looks at every byte a cell prints, and a byte-by-byte loop in Swift costs several
/// times as much.
enum Bytes {
    /// The index of the first `byte` at or after `start`, or nil.
    static func find(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress,
              let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The index of the first occurrence of `needle`, or nil: its first byte is found with
    /// `memchr`, the rest compared (`memmem` is a GNU extension Swift's Glibc module lacks).
    static func find(_ needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = needle.first, let base = buffer.baseAddress else { return nil }
        var start = 0
        while let candidate = find(first, in: buffer, from: start), candidate + needle.count <= buffer.count {
            if needle.withUnsafeBytes({ memcmp(base + candidate, $0.baseAddress!, needle.count) }) == 0 { return candidate }
            start = candidate + 1
        }
        return nil
    }
}
