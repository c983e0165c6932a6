import Foundation

/// The GNU build ID of an ELF file (`readelf -n`'s "Build ID"): the linker's hash of the
/// file's contents, which names a build of a tool or library without reading all of it.
///
/// Only 64-bit little-endian files are read (the toolchains this kernel runs on).
enum ELFBuildID {
    /// The build ID of `file` as lowercase hex, or nil when it is not such an ELF file or
    /// has no build-ID note.
    static func read(_ file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        func bytes(at offset: UInt64, count: Int) -> [UInt8]? {
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count),
                  data.count == count else { return nil }
            return [UInt8](data)
        }
        // e_ident: magic, ELFCLASS64 (2), ELFDATA2LSB (1).
        guard let header = bytes(at: 0, count: 64), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1
        else { return nil }
        let programHeaders = integer(header, at: 0x20, size: 8)
        let entrySize = integer(header, at: 0x36, size: 2), entries = integer(header, at: 0x38, size: 2)
        guard entrySize >= 56, entries < 256 else { return nil }
        for index in 0..<entries {
            guard let entry = bytes(at: programHeaders + index * entrySize, count: 56),
                  integer(entry, at: 0, size: 4) == 4 /* PT_NOTE */ else { continue }
            let size = integer(entry, at: 0x20, size: 8)
            guard size <= 65_536, let notes = bytes(at: integer(entry, at: 0x08, size: 8), count: Int(size)) else { continue }
            if let id = buildID(inNotes: notes) { return id }
        }
        return nil
    }

    /// The description of the first `GNU` note of type `NT_GNU_BUILD_ID` (3) in a note segment.
    static func buildID(inNotes notes: [UInt8]) -> String? {
        func aligned(_ value: UInt64) -> UInt64 { (value + 3) & ~3 }
        var offset: UInt64 = 0
        while offset + 12 <= UInt64(notes.count) {
            let nameSize = integer(notes, at: Int(offset), size: 4), descriptionSize = integer(notes, at: Int(offset) + 4, size: 4)
            let type = integer(notes, at: Int(offset) + 8, size: 4)
            let name = offset + 12, description = name + aligned(nameSize), end = description + aligned(descriptionSize)
            guard end <= UInt64(notes.count) else { return nil }
            if type == 3, nameSize == 4, notes[Int(name)..<Int(name) + 4] == [0x47, 0x4E, 0x55, 0], descriptionSize > 0 {
                return notes[Int(description)..<Int(description + descriptionSize)].map { String(format: "%02x", $0) }.joined()
            }
            offset = end
        }
        return nil
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}
