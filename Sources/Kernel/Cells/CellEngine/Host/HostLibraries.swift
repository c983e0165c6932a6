import SystemSupport

/// What the ready cell host has loaded, for a cell's link to leave out (see ``CellCompiler``).
///
/// The host's map (`/proc/<pid>/maps`) grows by three lines with every cell library it
/// opens, and reading it sits on every cell's critical path, longer with every cell (the
/// 100-cell notebook in results/kernel-latency.md is where it shows). But a host never unloads a
/// library (cell libraries stay open so their values stay valid; the runtime and the
/// notebook library are its dependencies), so a library once seen in a host's map stays
/// loaded in that host. The map is therefore read again only when a question names a
/// library not seen yet, at most once per cell, and everything seen is forgotten when
/// another host (a restart, a promoted snapshot) becomes the ready one.
///
/// Thread rules: used on the shell thread only.
final class HostLibraries {
    /// Which host, and the process whose map is read.
    typealias Host = (id: HostID, pid: Int32)

    private let readMap: (Int32) -> Set<String>
    private var host: Host?
    private var seen: Set<String> = []
    private var readThisCell = false

    /// Creates an empty record.
    /// - Parameter readMap: the library file names a process has mapped (tests count reads).
    init(readMap: @escaping (Int32) -> Set<String> = LoadedLibraries.names(of:)) {
        self.readMap = readMap
    }

    /// Starts the questions of one compile, about the host that will run it.
    /// - Parameter host: the ready host, or nil when none is ready (then nothing is loaded,
    ///   and every library is linked).
    func beginCell(host: Host?) {
        if host?.id != self.host?.id {
            seen = []
        }
        self.host = host
        readThisCell = false
    }

    /// True when the host has `lib<name>.so` loaded (a versioned `lib<name>.so.1` counts).
    /// Reads the host's map when `name` was not seen before, once per cell.
    func contains(library name: String) -> Bool {
        guard let host else { return false }
        if LoadedLibraries.contains(seen, library: name) { return true }
        guard !readThisCell else { return false }
        readThisCell = true
        seen.formUnion(readMap(host.pid))
        return LoadedLibraries.contains(seen, library: name)
    }
}
