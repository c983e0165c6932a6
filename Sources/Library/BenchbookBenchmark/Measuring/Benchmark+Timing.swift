import Foundation

extension Benchmark {
    /// Times one run of a closure: wall time plus user and system CPU time (`%time`).
    ///
    /// The closure's value is handed back, so a cell's last expression still shows.
    /// - Parameter body: the code to run once.
    /// - Returns: the value of `body` and its ``SingleTiming``.
    /// - Throws: what `body` throws.
    public static func time<Value>(_ body: () throws -> Value) rethrows -> (value: Value, timing: SingleTiming) {
        let before = CPUTimes.now()
        let start = monotonicNanoseconds()
        let value = try body()
        let wall = seconds(monotonicNanoseconds() &- start)
        let after = CPUTimes.now()
        return (value, SingleTiming(
            wallSeconds: wall, userSeconds: after.user - before.user, systemSeconds: after.system - before.system))
    }

    /// Times a closure many times with statistics, like IPython's `%timeit`.
    ///
    /// Closures faster than 10 µs are batched (several calls per sample) so the clock read
    /// does not dominate; the result then reports time per call. The calibration and the
    /// first run are the warm-up; then at least 7 samples and 0.2 s are measured.
    /// - Parameters:
    ///   - name: label for the result.
    ///   - body: the code to time; it runs many times.
    /// - Returns: a result that shows "mean ± std per call" and the percentiles.
    /// - Throws: `InterruptedError` on interrupt, or what `body` throws.
    public static func timeit(_ name: String = "timeit", _ body: () throws -> Void) throws -> BenchmarkResult {
        // Calibrate: how many calls make a sample of at least 10 µs.
        var batch = 1
        while batch < 1 << 20 {
            let start = monotonicNanoseconds()
            for _ in 0..<batch { try body() }
            if monotonicNanoseconds() &- start >= 10_000 { break }
            batch *= 2
        }
        let options = BenchmarkOptions(
            warmupRuns: 0, minimumWarmupSeconds: 0, minimumRuns: 7, minimumSeconds: 0.2,
            maximumSeconds: 60, innerIterations: batch)
        return try Benchmark(name, options: options).run(body)
    }
}

/// The time of a single run, as `%time` shows it.
public struct SingleTiming: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Elapsed wall-clock time in seconds.
    public var wallSeconds: Double
    /// CPU time spent in user mode by the whole process (all threads).
    public var userSeconds: Double
    /// CPU time spent in the kernel on behalf of the process.
    public var systemSeconds: Double

    /// Creates a timing.
    public init(wallSeconds: Double, userSeconds: Double, systemSeconds: Double) {
        self.wallSeconds = wallSeconds
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
    }

    /// "CPU times: user …, sys …, total …" and "Wall time: …" on two lines, as IPython shows.
    public var description: String {
        "CPU times: user \(DurationFormat.string(userSeconds)), sys \(DurationFormat.string(systemSeconds)), "
            + "total \(DurationFormat.string(userSeconds + systemSeconds))\nWall time: \(DurationFormat.string(wallSeconds))"
    }
}

/// Process CPU times from `getrusage`.
struct CPUTimes {
    var user: Double
    var system: Double

    static func now() -> CPUTimes {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return CPUTimes(
            user: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6,
            system: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6)
    }
}
