import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// This process: its parent, its process group, the signals it handles, and ending it at
/// once.
///
/// With ``ChildProcess``, the only place in the project that sends signals and changes
/// how this process takes them.
public enum CurrentProcess {
    /// This process's id.
    public static var id: Int32 { getpid() }

    /// The parent's id now: once the process that started this one is gone, init's (1) or
    /// a subreaper's.
    public static var parentID: Int32 { getppid() }

    /// The effective user id.
    public static var userID: UInt32 { geteuid() }

    /// True when this process leads its process group (as a kernel does when jupyter_client
    /// starts it in a new session), so that the group holds only what it started.
    public static var leadsProcessGroup: Bool { getpgrp() == getpid() }

    /// Ignores a signal from now on (for example SIGPIPE, so a write to a helper that has
    /// exited fails with `EPIPE` instead of ending this process).
    /// - Parameter number: the signal.
    public static func ignore(_ number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    /// Calls `handler` on `queue` whenever the signal arrives, instead of its default action.
    /// - Parameters:
    ///   - number: the signal (for example SIGTERM).
    ///   - queue: where the handler runs.
    ///   - handler: what to do; it runs as ordinary code, not in a signal handler.
    /// - Returns: the source delivering the signal; keep it alive as long as it should.
    public static func handle(_ number: Int32, on queue: DispatchQueue = .global(),
                              _ handler: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        ignore(number)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }

    /// Sends a signal to every other process in this process's group (a compiler and its
    /// children, a language server); this process ignores that signal from then on.
    /// - Parameter number: the signal.
    public static func signalOwnGroup(_ number: Int32) {
        ignore(number)
        _ = kill(0, number)
    }

    /// Ends the process at once with `status`: no `atexit` handlers, no flushing. For a
    /// process that has cleaned up already and must not wait on other threads.
    /// - Parameter status: the exit status.
    public static func exitNow(status: Int32) -> Never {
        _exit(status)
    }

    /// Blocks the calling thread for good (another thread is ending the process).
    public static func waitForever() -> Never {
        while true { pause() }
    }

    /// Whether a process with this id exists now (it may belong to another user).
    /// - Parameter pid: the process id.
    public static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
