#if canImport(Glibc)
import Glibc
#endif

/// What a process costs, read from `/proc` the way psutil reads it (Linux).
public struct ProcessStatistics: Sendable, Equatable {
    public var pid: Int32
    /// The program's name: the last path component of its `argv[0]`, or the name the
    /// system keeps (`comm`, at most 15 bytes) when the command line is empty (a process
    /// that has ended and was not reaped yet).
    public var name: String
    /// True for a process that has ended but was not reaped yet (a zombie).
    public var hasEnded = false
    /// User and system CPU seconds the process itself used.
    public var cpuSeconds: Double
    /// User and system CPU seconds of the children it has waited for (theirs included):
    /// where the CPU time of a process that ended goes.
    public var waitedChildrenCPUSeconds: Double
    /// Proportional set size in bytes (`Pss` in `smaps_rollup`): the process's private
    /// pages plus its share of every page it shares, so the sizes of processes that share
    /// pages (a cell host and its forked snapshots) add up to what they use together.
    /// 0 for a process that has ended but was not reaped yet.
    public var proportionalSetSize: Int

    /// Creates a record.
    public init(pid: Int32, name: String, cpuSeconds: Double, waitedChildrenCPUSeconds: Double, proportionalSetSize: Int) {
        self.pid = pid
        self.name = name
        self.cpuSeconds = cpuSeconds
        self.waitedChildrenCPUSeconds = waitedChildrenCPUSeconds
        self.proportionalSetSize = proportionalSetSize
    }

    /// Reads a process's statistics now.
    /// - Parameter pid: the process.
    /// - Returns: nil when the process is gone or its files cannot be read.
    public static func read(_ pid: Int32) -> ProcessStatistics? {
        guard let stat = ProcFile.text("/proc/\(pid)/stat"), var statistics = parse(stat: stat, pid: pid) else { return nil }
        statistics.proportionalSetSize = ProcFile.text("/proc/\(pid)/smaps_rollup").map(proportionalSetSize(inSmapsRollup:)) ?? 0
        if let program = ProcFile.text("/proc/\(pid)/cmdline")?.split(separator: "\0").first?.split(separator: "/").last {
            statistics.name = String(program)
        }
        return statistics
    }

    /// A process and all its descendants, parents before children, from the
    /// `/proc/<pid>/task/*/children` lists.
    /// - Parameter pid: the root of the tree.
    public static func tree(from pid: Int32) -> [Int32] {
        var found = [pid]
        var next = 0
        while next < found.count {
            for child in children(of: found[next]) where !found.contains(child) { found.append(child) }
            next += 1
        }
        return found
    }

    /// The children of a process (of each of its threads).
    public static func children(of pid: Int32) -> [Int32] {
        guard let tasks = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(tasks) }
        var found: [Int32] = []
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true, let list = ProcFile.text("/proc/\(pid)/task/\(name)/children") else { continue }
            found += list.split(separator: " ").compactMap { Int32($0.trimmingSuffix(while: \.isNewline)) }
        }
        return found
    }

    /// Reads the name and CPU times from the text of `/proc/<pid>/stat`. The name is
    /// between the first `(` and the last `)` (it may hold spaces and parentheses); the
    /// times are fields 14-17, in clock ticks.
    static func parse(stat: String, pid: Int32) -> ProcessStatistics? {
        guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let name = String(stat[stat.index(after: open)..<close])
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state): utime, stime, cutime, cstime are fields 14-17.
        guard fields.count > 14, let user = Double(fields[11]), let system = Double(fields[12]),
              let childrenUser = Double(fields[13]), let childrenSystem = Double(fields[14]) else { return nil }
        let tick = Double(clockTicksPerSecond)
        var statistics = ProcessStatistics(pid: pid, name: name, cpuSeconds: (user + system) / tick,
                                           waitedChildrenCPUSeconds: (childrenUser + childrenSystem) / tick, proportionalSetSize: 0)
        statistics.hasEnded = fields[0] == "Z"
        return statistics
    }

    /// The `Pss:` line of `smaps_rollup`, in bytes.
    static func proportionalSetSize(inSmapsRollup text: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix("Pss:") {
            return (Int(line.dropFirst(4).split(separator: " ").first ?? "") ?? 0) * 1024
        }
        return 0
    }

    static let clockTicksPerSecond = max(1, sysconf(Int32(_SC_CLK_TCK)))
}

/// The machine's memory as psutil's `virtual_memory()` reports it (its field names and
/// formulas, from `/proc/meminfo`): what ipykernel sends as `host_virtual_memory`.
public struct SystemMemory: Sendable, Equatable {
    /// Bytes, by psutil's field name: total, available, used, free, active, inactive,
    /// buffers, cached, shared, slab.
    public var bytes: [String: Int]
    /// Share of the total that is not available, in percent, rounded to 0.1.
    public var percent: Double

    /// psutil's field names, in its order.
    public static let fields = ["total", "available", "percent", "used", "free", "active", "inactive",
                                "buffers", "cached", "shared", "slab"]

    /// Reads `/proc/meminfo` now; nil when it cannot be read.
    public static func read() -> SystemMemory? {
        ProcFile.text("/proc/meminfo").flatMap(parse(meminfo:))
    }

    /// Computes the fields from the text of `/proc/meminfo` (values in kB), as psutil 7:
    /// cached includes `SReclaimable`, used is total minus available.
    static func parse(meminfo text: String) -> SystemMemory? {
        var kilobytes: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let value = Int(parts[1]) else { continue }
            kilobytes[String(parts[0].dropLast())] = value
        }
        func field(_ name: String) -> Int { (kilobytes[name] ?? 0) * 1024 }
        guard let totalKB = kilobytes["MemTotal"], totalKB > 0 else { return nil }
        let total = totalKB * 1024
        var available = field("MemAvailable")
        if available > total { available = field("MemFree") }
        let bytes = [
            "total": total, "available": available, "used": total - available, "free": field("MemFree"),
            "active": field("Active"), "inactive": field("Inactive"), "buffers": field("Buffers"),
            "cached": field("Cached") + field("SReclaimable"), "shared": field("Shmem"), "slab": field("Slab"),
        ]
        let percent = (Double(total - available) / Double(total) * 1000).rounded() / 10
        return SystemMemory(bytes: bytes, percent: percent)
    }
}

/// The machine's CPU time since boot, summed over all CPUs (the `cpu` line of
/// `/proc/stat`), split as psutil splits it for `cpu_percent()`.
public struct SystemCPUTimes: Sendable, Equatable {
    /// All time, minus guest time (already counted in user and nice), in clock ticks.
    public var total: Double
    /// Time not idle and not waiting for I/O, in clock ticks.
    public var busy: Double

    /// Reads `/proc/stat` now; nil when it cannot be read.
    public static func read() -> SystemCPUTimes? {
        ProcFile.text("/proc/stat").flatMap(parse(stat:))
    }

    /// The share of CPU time that was busy between two readings, in percent, rounded to
    /// 0.1 (psutil's `cpu_percent()`); 0 when no time passed.
    public func busyPercent(since earlier: SystemCPUTimes) -> Double {
        let all = total - earlier.total
        guard all > 0 else { return 0 }
        return (max(0, busy - earlier.busy) / all * 1000).rounded() / 10
    }

    /// Reads the `cpu` line: user nice system idle iowait irq softirq steal guest guest_nice.
    static func parse(stat text: String) -> SystemCPUTimes? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 4 else { return nil }
        func value(_ index: Int) -> Double { index < values.count ? values[index] : 0 }
        let total = values.reduce(0, +) - value(8) - value(9)
        return SystemCPUTimes(total: total, busy: total - value(3) - value(4))
    }

    /// Logical CPUs online (psutil's `cpu_count(logical=True)`).
    public static var logicalCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}

/// Small text files under `/proc`, read whole.
enum ProcFile {
    static func text(_ path: String) -> String? {
        guard let file = try? FileDescriptor.open(path) else { return nil }
        defer { file.close() }
        guard let bytes = try? file.readToEnd() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var text = self
        while let last = text.last, predicate(last) { text = text.dropLast() }
        return text
    }
}
