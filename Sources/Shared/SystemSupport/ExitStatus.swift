internal import CSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// It called `exit` (or returned from `main`) with this code.
    case exited(code: Int32)
    /// A signal ended it (a trap is SIGILL or SIGTRAP, `abort()` SIGABRT, a bad access
    /// or stack overflow SIGSEGV, a kill SIGKILL).
    case signalled(signal: Int32)

    /// Decodes a `waitpid` status.
    /// - Parameter status: the raw status.
    public init(waitStatus status: Int32) {
        if bb_wait_signaled(status) != 0 {
            self = .signalled(signal: bb_wait_signal(status))
        } else {
            self = .exited(code: bb_wait_exit_code(status))
        }
    }

    /// The signal's name and the system's description, for example
    /// "SIGSEGV (Segmentation fault)".
    public static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGSYS: "SIGSYS",
        ]
        let text = strsignal(number).map { String(cString: $0) } ?? "unknown signal"
        return "\(names[number] ?? "signal \(number)") (\(text))"
    }

    /// "exit status 1" or "signal SIGSEGV (Segmentation fault)".
    public var description: String {
        switch self {
        case .exited(let code): "exit status \(code)"
        case .signalled(let signal): "signal \(Self.signalName(signal))"
        }
    }
}
