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
        var names = Set<String>()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let slash = line.lastIndex(of: "/") else { continue }
            let name = line[line.index(after: slash)...]
            if name.contains(".so") { names.insert(String(name)) }
        }
        return names
    }

    /// True when `names` holds library `name` as `-l<name>` would find it
    /// (`libname.so`, or a versioned `libname.so.1`).
    public static func contains(_ names: Set<String>, library name: String) -> Bool {
        let file = "lib\(name).so"
        return names.contains(file) || names.contains { $0.hasPrefix(file + ".") }
    }
}
