internal import CSystemSupport

/// Limits for a helper process, so a runaway compiler, parser or model check cannot take
/// the machine's memory or a core for ever.
public struct ResourceLimits: Sendable, Equatable {
    /// The most virtual memory the process may map, in bytes (`RLIMIT_AS`); allocations
    /// beyond it fail.
    public var addressSpaceBytes: UInt64?
    /// The most CPU time the process may use, in seconds (`RLIMIT_CPU`, soft and hard
    /// limit alike, so Linux sends SIGKILL when it is reached).
    public var cpuSeconds: UInt64?

    /// Creates limits; nil leaves a resource unlimited (as inherited).
    public init(addressSpaceBytes: UInt64? = nil, cpuSeconds: UInt64? = nil) {
        self.addressSpaceBytes = addressSpaceBytes
        self.cpuSeconds = cpuSeconds
    }

    /// No limits.
    public static let none = ResourceLimits()

    /// Applies the limits to another process (`prlimit`).
    /// - Parameter pid: the process.
    /// - Throws: ``SystemError``.
    func apply(to pid: Int32) throws(SystemError) {
        if let bytes = addressSpaceBytes, bb_set_limit(pid, bb_limit_address_space(), bytes) != 0 {
            throw SystemError("prlimit RLIMIT_AS")
        }
        if let seconds = cpuSeconds, bb_set_limit(pid, bb_limit_cpu_seconds(), seconds) != 0 {
            throw SystemError("prlimit RLIMIT_CPU")
        }
    }
}
