#if canImport(Glibc)
import Glibc
#endif

/// The shared libraries a running process has mapped, read from `/proc/<pid>/maps`.
public enum LoadedLibraries {
    /// The file names (`libswiftCore.so`, `libCell3.so`) of the libraries `pid` has mapped.
    /// - Returns: an empty set when the process is gone or its map cannot be read.
    public static func names(of pid: Int32) -> Set<String> {
        guard let file = try? FileDescriptor.open("/proc/\(pid)/maps") else { return [] }
        defer { file.close() }
        guard let bytes = try? file.readToEnd() else { return [] }
        return names(inMaps: bytes)
    }

    /// The library file names in the text of a `/proc/<pid>/maps` file: the last path
    /// component of each line that names a file containing `.so`.
    ///
    /// Works on bytes, not on `String` lines: a cell host's map has a few hundred lines and
    /// the engine reads it for every cell (splitting it as strings cost a visible share of a
    /// trivial cell, results/kernel-latency.md).
    public static func names(inMaps bytes: [UInt8]) -> Set<String> {
        var names = Set<String>()
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let slash = line.lastIndex(of: UInt8(ascii: "/")) else { continue }
            let name = line[line.index(after: slash)...]
            if containsSharedObjectSuffix(name) { names.insert(String(decoding: name, as: UTF8.self)) }
        }
        return names
    }

    /// True when `name` contains `.so` (`libm.so.6`, `libCell3.so`).
    private static func containsSharedObjectSuffix(_ name: ArraySlice<UInt8>) -> Bool {
        let dot = UInt8(ascii: "."), s = UInt8(ascii: "s"), o = UInt8(ascii: "o")
        var index = name.startIndex
        while index + 2 < name.endIndex {
            if name[index] == dot, name[index + 1] == s, name[index + 2] == o { return true }
            index += 1
        }
        return false
    }

    /// The C library's version in this process, as `(2, 36)`; nil when it is not glibc.
    public static var cLibraryVersion: (major: Int, minor: Int)? {
        #if canImport(Glibc)
        // "glibc 2.36"
        var text = [CChar](repeating: 0, count: 64)
        guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return nil }
        let words = String(decoding: text.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self).split(separator: " ")
        guard words.count == 2, words[0] == "glibc" else { return nil }
        let parts = words[1].split(separator: ".").compactMap { Int($0) }
        if parts.count >= 2 { return (parts[0], parts[1]) }
        #endif
        return nil
    }

    /// True when `names` holds library `name` as `-l<name>` would find it
    /// (`libname.so`, or a versioned `libname.so.1`).
    public static func contains(_ names: Set<String>, library name: String) -> Bool {
        let file = "lib\(name).so"
        return names.contains(file) || names.contains { $0.hasPrefix(file + ".") }
    }
}
