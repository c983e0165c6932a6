import Foundation

/// Reads the libraries a Swift object file asks to be linked with (the NUL-separated
/// `-l` flags in its `.swift1_autolink_entries` section), as `swift-autolink-extract`
/// does, without starting another process.
enum AutolinkEntries {
    /// The entries of a 64-bit little-endian ELF object, or nil when it is not one.
    /// - Parameter object: the object file's bytes.
    static func read(from object: Data) -> [String]? {
        let bytes = [UInt8](object)
        func integer(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            var value = 0
            for index in (0..<size).reversed() { value = value << 8 | Int(bytes[offset + index]) }
            return value
        }
        // ELF64, little-endian.
        guard bytes.count > 64, bytes[0...3] == [0x7f, 0x45, 0x4c, 0x46], bytes[4] == 2, bytes[5] == 1,
              let sectionTable = integer(0x28, 8), let entrySize = integer(0x3A, 2),
              let count = integer(0x3C, 2), let namesIndex = integer(0x3E, 2), namesIndex < count,
              let namesOffset = integer(sectionTable + namesIndex * entrySize + 0x18, 8) else { return nil }
        var entries: [String] = []
        for index in 0..<count {
            let header = sectionTable + index * entrySize
            guard let nameOffset = integer(header, 4), let offset = integer(header + 0x18, 8),
                  let size = integer(header + 0x20, 8) else { return nil }
            let nameStart = namesOffset + nameOffset
            guard nameStart < bytes.count else { return nil }
            let nameEnd = bytes[nameStart...].firstIndex(of: 0) ?? bytes.count
            guard String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self) == ".swift1_autolink_entries",
                  offset + size <= bytes.count else { continue }
            entries += bytes[offset..<(offset + size)].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
        return entries
    }
}
