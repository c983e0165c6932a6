internal import CSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Makes this process adopt its orphaned descendants, and reaps the ones that exit.
///
/// The kernel is the subreaper of everything the cell host starts: a snapshot of the host
/// (a forked copy kept after each cell) outlives the host that made it when that host
/// crashes, and the kernel must be its parent to make it the new host. Processes adopted
/// this way and not taken in charge by a ``ChildProcess`` are reaped by
/// ``reapAdoptedOrphans()`` so no zombie is left.
public enum Subreaper {
    /// Becomes the subreaper of this process's descendants.
    /// - Throws: ``SystemError``.
    public static func adoptOrphans() throws(SystemError) {
        guard bb_become_child_subreaper() == 0 else { throw SystemError("prctl PR_SET_CHILD_SUBREAPER") }
    }

    /// Reaps exited children that no ``ChildProcess`` owns (they reap their own).
    public static func reapAdoptedOrphans() {
        reapAdoptedOrphans { _ in true }
    }

    /// Reaps the exited children that no ``ChildProcess`` owns and `include` accepts (tests
    /// sweep only their own children, in a process where other tests start processes).
    static func reapAdoptedOrphans(where include: (Int32) -> Bool) {
        // Under the registry's lock: a child being started or reaped is either registered
        // or gone, never in between.
        ChildProcess.registry.withLock { owned in
            for pid in children() where !owned.contains(pid) && include(pid) {
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)
            }
        }
    }

    /// This process's children, from `/proc/self/task/*/children`.
    static func children() -> [Int32] {
        guard let tasks = opendir("/proc/self/task") else { return [] }
        defer { closedir(tasks) }
        var found: [Int32] = []
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true,
                  let file = try? FileDescriptor.open("/proc/self/task/\(name)/children"),
                  let bytes = try? file.readToEnd() else { continue }
            file.close()
            found += String(decoding: bytes, as: UTF8.self).split(separator: " ").compactMap { Int32($0) }
        }
        return found
    }
}
