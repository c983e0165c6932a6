import BenchbookRuntime
import Foundation

/// How much resident memory a piece of work added at its peak: what TensorFlow Lite's
/// `benchmark_model --report_peak_memory_footprint` reports for a model, measured inside a
/// process that already holds other things.
///
/// Before the work, freed heap memory is handed back to the system (`malloc_trim`), the
/// resident size is read (`VmRSS` in `/proc/self/status`) and the kernel's high-water mark is
/// reset to it (writing 5 to `/proc/self/clear_refs`); after it, the high-water mark
/// (`VmHWM`) is the peak, whatever the work freed before it ended. The footprint is the peak
/// minus the size before: model weights, the runtime's buffers and arenas, and anything else
/// the work touched for the first time (a runtime library loaded for the first time counts
/// too; load one model of each runtime before measuring to leave that out).
///
/// ```swift
/// let (sum, footprint) = try MemoryFootprint.measure { (0..<1_000_000).map { $0 * 2 }.reduce(0, +) }
/// print(footprint)      // about 7.6 MiB: the array of a million Ints at its peak
/// ```
public struct MemoryFootprint: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Resident bytes before the work.
    public var baselineBytes: Int
    /// The largest resident size while it ran.
    public var peakBytes: Int

    /// Creates a footprint from its figures.
    public init(baselineBytes: Int, peakBytes: Int) {
        self.baselineBytes = baselineBytes
        self.peakBytes = peakBytes
    }

    /// What the work added at its peak.
    public var increaseBytes: Int { max(0, peakBytes - baselineBytes) }

    /// For example "peak +21.3 MiB (12.0 → 33.3 MiB resident)".
    public var description: String {
        "peak +\(MemoryFormat.string(increaseBytes)) (\(MemoryFormat.string(baselineBytes)) → \(MemoryFormat.string(peakBytes)) resident)"
    }

    /// Runs `body` and measures its peak memory footprint.
    /// - Parameter body: the work, for example loading a model and running it a few times.
    /// - Returns: what `body` returned and the footprint.
    /// - Throws: ``BenchmarkError/unreadableFile(path:reason:)`` when `/proc/self` cannot be
    ///   read or its high-water mark cannot be reset; what `body` throws.
    public static func measure<Value>(_ body: () throws -> Value) throws -> (value: Value, footprint: MemoryFootprint) {
        releaseFreeHeapMemory()
        let before = try statusBytes("VmRSS")
        try resetHighWaterMark()
        let value = try body()
        let peak = try statusBytes("VmHWM")
        return (value, MemoryFootprint(baselineBytes: before, peakBytes: max(peak, before)))
    }

    private static func resetHighWaterMark() throws {
        let path = "/proc/self/clear_refs"
        guard let file = fopen(path, "w") else {
            throw BenchmarkError.unreadableFile(path: path, reason: "cannot open it for writing (\(String(cString: strerror(errno))))")
        }
        let written = fputs("5", file)
        let closed = fclose(file)
        if written < 0 || closed != 0 {
            throw BenchmarkError.unreadableFile(path: path, reason: "the kernel refused to reset the peak resident size")
        }
    }

    /// A `kB` line of `/proc/self/status`, in bytes.
    static func statusBytes(_ key: String) throws -> Int {
        let path = "/proc/self/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchmarkError.unreadableFile(path: path, reason: "cannot read it")
        }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let number = line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            if let number { return number * 1024 }
        }
        throw BenchmarkError.unreadableFile(path: path, reason: "it has no \(key) line")
    }
}
