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

    /// Holds a signal back (blocks it in the calling thread, and so in every thread started
    /// after it) until ``handle(_:_:)`` takes it: one sent before then stays pending.
    ///
    /// Thread rules: call it on the main thread, before starting other threads.
    /// - Parameter number: the signal.
    public static func holdBack(_ number: Int32) {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, number)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
    }

    /// Calls `handler` on a thread of its own whenever the signal arrives, instead of its
    /// default action.
    ///
    /// The signal is blocked in the calling thread, and so in every thread started after
    /// it; the handler's thread takes it with `sigwait`. A signal sent at any moment after
    /// this call is therefore handled, never lost. (A dispatch signal source ignores the
    /// signal until it is registered, asynchronously: a SIGTERM sent right after start was
    /// lost, and the kernel never stopped.) Threads started earlier must block the signal
    /// too; dispatch's threads block every signal.
    ///
    /// Thread rules: call it on the main thread, before starting other threads.
    /// - Parameters:
    ///   - number: the signal (for example SIGTERM).
    ///   - handler: what to do; it runs as ordinary code, not in a signal handler.
    public static func handle(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        holdBack(number)
        let waiter = Unmanaged.passRetained(SignalWaiter(number: number, handler: handler)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { argument in
            let waiter = Unmanaged<SignalWaiter>.fromOpaque(argument!).takeRetainedValue()
            var awaited = sigset_t()
            sigemptyset(&awaited)
            sigaddset(&awaited, waiter.number)
            while true {
                var received: Int32 = 0
                if sigwait(&awaited, &received) == 0 { waiter.handler() }
            }
        }, waiter)
        pthread_detach(thread)
    }

    /// What a signal-handling thread waits for and calls.
    private final class SignalWaiter: Sendable {
        let number: Int32
        let handler: @Sendable () -> Void

        init(number: Int32, handler: @escaping @Sendable () -> Void) {
            self.number = number
            self.handler = handler
        }
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
