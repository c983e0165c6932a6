#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed, with its `errno`.
///
/// The only place in the project where an `errno` becomes text.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, for example "pipe" or "posix_spawn /usr/bin/ld.lld".
    public var operation: String
    /// The error number.
    public var code: Int32

    /// Creates an error for a failed call.
    /// - Parameters:
    ///   - operation: what was being done.
    ///   - code: the error number (defaults to the current `errno`).
    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    /// The system's message for the error number, for example "No such file or directory".
    public var message: String { String(cString: strerror(code)) }

    public var description: String { "\(operation): \(message) (errno \(code))" }
}
