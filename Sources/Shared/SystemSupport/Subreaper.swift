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

    /// Ends the processes this one adopted that no ``ChildProcess`` owns and `spared` does
    /// not name, with everything they started, and reaps them: what a cell host's cells
    /// left behind in sessions of their own once the host is gone (see ``ProcessTree``).
    /// Killing one may hand its children to this process; they are ended in the next round.
    /// - Parameter spared: adopted processes to leave alone (the snapshot about to become
    ///   the host).
    /// - Returns: how many processes were ended.
    @discardableResult
    public static func endAdoptedOrphans(sparing spared: Set<Int32>) -> Int {
        var ended = 0
        for _ in 0..<8 {
            let orphans = ChildProcess.registry.withLock { owned in
                children().filter { !owned.contains($0) && !spared.contains($0) && !ProcessTree.hasExited($0) }
            }
            guard !orphans.isEmpty else { break }
            ended += ProcessTree.kill(orphans)
            for pid in orphans {
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
        }
        reapAdoptedOrphans { !spared.contains($0) }
        return ended
    }

    /// This process's children, from `/proc/self/task/*/children`.
    static func children() -> [Int32] {
        ProcessStatistics.children(of: getpid())
    }
}
