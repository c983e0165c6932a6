internal import CSystemSupport
#if canImport(Glibc)
import Glibc
#endif

extension CurrentProcess {
    /// Calls `handler` once, on a thread of its own, when `parent` (this process's parent)
    /// exits; at once, on that thread, when it is not this process's parent any more.
    ///
    /// The project's one parent-death watch (`bb_watch_parent_exit` in CSystemSupport): the
    /// kernel ends itself when the process that started it is gone (``ParentWatch`` in
    /// BenchbookKernel), and a cell host or the cell compiler ends with its kernel. The
    /// thread waits on a pidfd of the parent, which becomes readable when the parent exits:
    /// nothing runs while the parent lives, and its exit is noticed at once.
    ///
    /// Thread rules: the watching thread starts with the calling thread's signal mask, so a
    /// signal held back (``holdBack(_:)``) before this call stays held back in it.
    /// - Parameters:
    ///   - parent: the parent to watch (by default the parent now).
    ///   - lowest: the lowest number the watch's descriptor (a pidfd) may have, so that it
    ///     never takes a number this process expects to be given or free.
    ///   - handler: what to do then; it runs as ordinary code on the watching thread.
    /// - Returns: false when there is nothing to watch: `parent` is init (this process was
    ///   orphaned already) or outside this process's pid namespace (0).
    /// - Throws: ``SystemError`` when the watch cannot start (pidfd_open, the thread).
    @discardableResult
    public static func whenParentExits(_ parent: Int32 = parentID, descriptorsFrom lowest: Int32 = 0,
                                       _ handler: @escaping @Sendable () -> Void) throws(SystemError) -> Bool {
        guard parent > 1 else { return false }
        let context = Unmanaged.passRetained(ParentExitHandler(handler)).toOpaque()
        let started = bb_watch_parent_exit(parent, lowest, { context in
            Unmanaged<ParentExitHandler>.fromOpaque(context!).takeRetainedValue().handler()
        }, context)
        guard started == 0 else {
            let error = SystemError("watching the parent process \(parent)")
            Unmanaged<ParentExitHandler>.fromOpaque(context).release()
            throw error
        }
        return true
    }

    /// What a parent watch calls, kept alive until it is called.
    private final class ParentExitHandler: Sendable {
        let handler: @Sendable () -> Void

        init(_ handler: @escaping @Sendable () -> Void) {
            self.handler = handler
        }
    }
}
