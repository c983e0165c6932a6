#if canImport(Glibc)
import Glibc
#endif

/// Ending the processes below a process, found from `/proc` (``ProcessStatistics/tree(from:)``).
///
/// A cell may start processes that leave the cell host's process group: `setsid()` in a
/// child, or a double fork whose grandchild starts a session. Killing the host's group does
/// not reach them, so the kernel ends them by ancestry: while the host lives they are its
/// descendants, and when it dies they are re-parented to the kernel, the subreaper of
/// everything the host starts (``Subreaper``).
///
/// Thread rules: stateless; safe from any thread. A pid read here can be reused once its
/// process is reaped; the callers read and signal their own children and their children's
/// children within moments.
public enum ProcessTree {
    /// Every descendant of `pid`, parents before their children.
    public static func descendants(of pid: Int32) -> [Int32] {
        Array(ProcessStatistics.tree(from: pid).dropFirst())
    }

    /// True when `pid` has exited and waits to be reaped (or is gone).
    public static func hasExited(_ pid: Int32) -> Bool {
        guard let file = try? FileDescriptor.open("/proc/\(pid)/stat"), let bytes = try? file.readToEnd() else { return true }
        file.close()
        // `pid (comm) S ...`: the state follows the last ')'.
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")), close + 2 < bytes.count else { return true }
        return bytes[close + 2] == UInt8(ascii: "Z") || bytes[close + 2] == UInt8(ascii: "X")
    }

    /// Sends SIGKILL to `pids` and to every descendant of each, descendants read first (so
    /// none is missed when its parent dies and it moves to a subreaper).
    /// - Returns: how many processes were signalled.
    @discardableResult
    public static func kill(_ pids: [Int32]) -> Int {
        var targets: [Int32] = []
        for pid in pids { targets += [pid] + descendants(of: pid) }
        for pid in targets { _ = Glibc.kill(pid, SIGKILL) }
        return targets.count
    }

    /// Ends every process below `pid`, in a few rounds: a process whose parent dies while
    /// the tree is read moves to a subreaper (this process, for the kernel) and is found in
    /// the next round. For a process about to exit.
    /// - Parameter pid: the root, usually this process.
    public static func endAll(below pid: Int32) {
        for _ in 0..<5 {
            let living = descendants(of: pid).filter { !hasExited($0) }
            guard !living.isEmpty else { return }
            for process in living { _ = Glibc.kill(process, SIGKILL) }
            usleep(20_000)
        }
    }
}
