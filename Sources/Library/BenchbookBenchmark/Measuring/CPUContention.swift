import Foundation

/// How much of the machine a benchmark had while it measured: this process's CPU time
/// against wall time, the CPU time the machine spent on everything else, and the time the
/// hypervisor took from this virtual machine (steal), read from `/proc/self/stat` and
/// `/proc/stat` at the start and the end of the measured runs.
///
/// **The flag.** The cores left for the benchmark are the machine's cores minus the average
/// number other processes kept busy and the average number stolen. A run is *contended*
/// when that is at least a fifth of a core short of its thread count: some of its threads
/// could not get a core for part of the time, so its times say more about the machine than
/// about the code. The kernel counts CPU time in ticks of 10 ms, so the figures need a
/// measured phase of a few tenths of a second; shorter phases are never flagged.
public struct CPUContention: Sendable, Equatable, Codable {
    /// The shortage of cores, below the thread count, at which a run counts as contended.
    public static let shortageThreshold = 0.2
    /// The shortest measured phase the flag is given for.
    public static let minimumWallSeconds = 0.25
    /// The mark tables and charts put on a contended row: "⚠".
    public static let mark = "⚠"
    /// What the mark means, for a table's legend (after the mark).
    public static let markMeaning = "contended: other processes (or the hypervisor) kept busy cores this row's threads "
        + "needed, so some of its threads waited for a core; its times say more about the machine than about the model."

    /// Wall time of the measured phase.
    public var wallSeconds: Double
    /// CPU time of this process (all its threads) during the phase.
    public var processCPUSeconds: Double
    /// CPU time the machine spent on other processes (and the kernel) during the phase.
    public var othersBusySeconds: Double
    /// CPU time the hypervisor gave to other virtual machines (steal) during the phase.
    public var stealSeconds: Double
    /// Logical cores of the machine.
    public var cores: Int
    /// The thread count the benchmark asked for.
    public var threads: Int

    /// Creates a sample from its figures (the benchmark measures them; tests may build one).
    public init(wallSeconds: Double, processCPUSeconds: Double, othersBusySeconds: Double, stealSeconds: Double,
                cores: Int, threads: Int) {
        self.wallSeconds = wallSeconds
        self.processCPUSeconds = processCPUSeconds
        self.othersBusySeconds = othersBusySeconds
        self.stealSeconds = stealSeconds
        self.cores = cores
        self.threads = threads
    }

    /// The average number of cores this process used (its CPU time over wall time).
    public var processCores: Double { wallSeconds > 0 ? processCPUSeconds / wallSeconds : 0 }
    /// The average number of cores other processes and the hypervisor took.
    public var othersCores: Double { wallSeconds > 0 ? (othersBusySeconds + stealSeconds) / wallSeconds : 0 }
    /// The average number of cores left for the benchmark.
    public var freeCores: Double { max(0, Double(cores) - othersCores) }
    /// How many cores short of its thread count the benchmark was, on average (0 when none).
    public var shortage: Double { max(0, Double(threads) - freeCores) }
    /// Whether the run's threads could not all get a core (see the flag above).
    public var isContended: Bool { wallSeconds >= Self.minimumWallSeconds && shortage >= Self.shortageThreshold }

    /// Runs `body` and measures the contention while it ran.
    /// - Parameters:
    ///   - threads: the thread count `body` uses.
    ///   - body: the work.
    /// - Returns: what `body` returned, and the contention (`nil` when `/proc` cannot be read).
    /// - Throws: what `body` throws.
    public static func measure<Value, Failure: Error>(threads: Int, _ body: () throws(Failure) -> Value) throws(Failure)
        -> (value: Value, contention: CPUContention?) {
        let before = CPUCounters.read()
        let value = try body()
        let contention = before.flatMap { start in CPUCounters.read().map { CPUCounters.contention(from: start, to: $0, threads: threads) } }
        return (value, contention)
    }

    /// The same machine figures judged for another thread count (interleaved variants share
    /// one measured phase).
    public func with(threads: Int) -> CPUContention {
        var copy = self
        copy.threads = threads
        return copy
    }

    /// One line, for example "contended: 0.6 of 2 cores free for 2 threads (others 1.4, steal 0.0); this process used 1.1 cores".
    public var summary: String {
        func cores(_ value: Double) -> String { DurationFormat.fixed(value, decimals: 1) }
        let state = isContended ? "contended" : wallSeconds < Self.minimumWallSeconds ? "too short to judge" : "not contended"
        return "\(state): \(cores(freeCores)) of \(self.cores) cores free for \(threads) thread\(threads == 1 ? "" : "s") "
            + "(others \(cores((othersBusySeconds) / max(wallSeconds, 1e-9))), steal \(cores(stealSeconds / max(wallSeconds, 1e-9)))); "
            + "this process used \(cores(processCores)) cores"
    }
}

/// Reads the counters ``CPUContention`` is computed from. Two reads of two small files per
/// measured phase, outside the timed runs.
struct CPUCounters {
    /// Machine-wide non-idle time other than steal, in seconds.
    var machineBusy: Double
    /// Machine-wide steal time, in seconds.
    var steal: Double
    /// This process's user + system time, in seconds.
    var process: Double
    /// Monotonic time of the read, in nanoseconds.
    var time: UInt64

    private static let ticksPerSecond = Double(max(sysconf(Int32(_SC_CLK_TCK)), 1))

    /// The counters now; `nil` when `/proc` cannot be read (then no contention is recorded).
    static func read() -> CPUCounters? {
        guard let machine = machineTicks(), let process = processTicks() else { return nil }
        return CPUCounters(machineBusy: machine.busy / ticksPerSecond, steal: machine.steal / ticksPerSecond,
                           process: process / ticksPerSecond, time: monotonicNanoseconds())
    }

    /// The contention between two reads.
    static func contention(from start: CPUCounters, to end: CPUCounters, threads: Int) -> CPUContention {
        let wall = seconds(end.time &- start.time)
        let process = max(0, end.process - start.process)
        let busy = max(0, end.machineBusy - start.machineBusy)
        return CPUContention(wallSeconds: wall, processCPUSeconds: process, othersBusySeconds: max(0, busy - process),
                             stealSeconds: max(0, end.steal - start.steal),
                             cores: ProcessInfo.processInfo.activeProcessorCount, threads: threads)
    }

    /// `/proc/stat`'s first line: user nice system idle iowait irq softirq steal (guest time is
    /// already in user and nice).
    private static func machineTicks() -> (busy: Double, steal: Double)? {
        guard let line = firstLine(of: "/proc/stat"), line.hasPrefix("cpu ") else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count >= 8 else { return nil }
        let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6]
        return (busy, fields[7])
    }

    /// `/proc/self/stat` fields 14 and 15 (utime, stime), counted after the command name,
    /// which is in parentheses and may contain spaces.
    private static func processTicks() -> Double? {
        guard let line = firstLine(of: "/proc/self/stat"), let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // After ")": state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return user + system
    }

    private static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
