import Foundation

/// Gives a linked cell library the module name one file has, `main`, where the Swift
/// runtime reads it: the name in the module's context descriptor (`$s5Cell7MXM`), which
/// `String(reflecting:)`, `dump`, `debugPrint` and error messages print before a type's
/// name (`main.Point`, not `Cell7.Point`).
///
/// Only that C string changes, in place (`Cell7` is never shorter than `main`). Symbols,
/// the module file later cells import, and type lookups (which go through symbolic
/// references between cells, not names) keep `Cell7`. A string in a section of merged
/// strings that does not start a string there (the tail of a longer one) is left alone:
/// then the cell prints `Cell7.Point`.
enum ModuleDisplayName {
    /// The name every cell's types print with.
    static let shown = "main"

    /// Rewrites the module name in the library file; false when it was not found as
    /// expected (the library is then unchanged).
    /// - Parameters:
    ///   - library: the linked `libCellN.so`.
    ///   - module: its module name (`CellN`).
    @discardableResult
    static func apply(to library: URL, module: String) -> Bool {
        guard module.utf8.count >= shown.utf8.count, var bytes = try? [UInt8](Data(contentsOf: library)),
              let offset = nameOffset(in: bytes, module: module) else { return false }
        let replacement = Array(shown.utf8) + [0]
        bytes.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        return (try? Data(bytes).write(to: library)) != nil
    }

    /// The file offset of the module's name string, checked to be exactly `module` and the
    /// start of a string.
    static func nameOffset(in bytes: [UInt8], module: String) -> Int? {
        let elf = ELFFile(bytes)
        let symbol = "$s\(module.utf8.count)\(module)MXM"
        guard let descriptor = elf?.symbolAddress(symbol),
              // A module context descriptor: flags, parent, then the name as a 32-bit
              // offset relative to the field's own address.
              let field = elf?.fileOffset(ofAddress: descriptor + 8), let relative = elf?.int32(at: field),
              let offset = elf?.fileOffset(ofAddress: descriptor + 8 + relative) else { return nil }
        let name = Array(module.utf8) + [0]
        guard offset > 0, offset + name.count <= bytes.count,
              Array(bytes[offset..<(offset + name.count)]) == name else { return nil }
        // In a section of merged strings, the linker may have made it the tail of a longer
        // string: only a string that starts there is this one.
        if elf?.isMergedStrings(fileOffset: offset) != false, bytes[offset - 1] != 0 { return nil }
        return offset
    }
}

/// The parts of a 64-bit little-endian ELF file ``ModuleDisplayName`` reads: section
/// headers and the symbol tables.
struct ELFFile {
    private let bytes: [UInt8]
    private struct Section { var type: Int; var flags: Int; var address: Int; var offset: Int; var size: Int; var link: Int; var entrySize: Int }
    private let sections: [Section]

    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        guard bytes.count > 64, bytes[0...3] == [0x7f, 0x45, 0x4c, 0x46], bytes[4] == 2, bytes[5] == 1 else { return nil }
        func integer(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            var value = 0
            for index in (0..<size).reversed() { value = value << 8 | Int(bytes[offset + index]) }
            return value
        }
        guard let table = integer(0x28, 8), let entrySize = integer(0x3A, 2), let count = integer(0x3C, 2) else { return nil }
        var sections: [Section] = []
        for index in 0..<count {
            let header = table + index * entrySize
            guard let type = integer(header + 4, 4), let flags = integer(header + 8, 8), let address = integer(header + 0x10, 8), let offset = integer(header + 0x18, 8),
                  let size = integer(header + 0x20, 8), let link = integer(header + 0x28, 4),
                  let entry = integer(header + 0x38, 8) else { return nil }
            sections.append(Section(type: type, flags: flags, address: address, offset: offset, size: size, link: link, entrySize: entry))
        }
        self.sections = sections
    }

    private func integer(_ offset: Int, _ size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        var value = 0
        for index in (0..<size).reversed() { value = value << 8 | Int(bytes[offset + index]) }
        return value
    }

    /// A signed 32-bit value at a file offset.
    func int32(at offset: Int) -> Int? { integer(offset, 4).map { Int(Int32(truncatingIfNeeded: $0)) } }

    /// The file offset of a loaded address (in a section with contents in the file).
    func fileOffset(ofAddress address: Int) -> Int? {
        sections.first { $0.type != 8 && $0.address != 0 && address >= $0.address && address < $0.address + $0.size }
            .map { $0.offset + address - $0.address }
    }

    /// Whether the section holding a file offset merges equal strings (`SHF_MERGE` and
    /// `SHF_STRINGS`); nil when no section holds it.
    func isMergedStrings(fileOffset offset: Int) -> Bool? {
        sections.first { $0.type != 8 && offset >= $0.offset && offset < $0.offset + $0.size }
            .map { $0.flags & 0x30 == 0x30 }
    }

    /// The address of a symbol in `.symtab` or `.dynsym`.
    func symbolAddress(_ name: String) -> Int? {
        let wanted = Array(name.utf8)
        for table in sections where (table.type == 2 || table.type == 11) && table.entrySize == 24 && table.link < sections.count {
            let names = sections[table.link]
            for entry in stride(from: table.offset, to: table.offset + table.size, by: 24) {
                guard let nameIndex = integer(entry, 4), let value = integer(entry + 8, 8), value != 0 else { continue }
                let start = names.offset + nameIndex
                guard start + wanted.count < bytes.count, bytes[start + wanted.count] == 0,
                      bytes[start..<(start + wanted.count)].elementsEqual(wanted) else { continue }
                return value
            }
        }
        return nil
    }
}
