import BenchbookRuntime
import Foundation

/// Whether a figure repeats, the way MLPerf Mobile asks it: the same measurement made as
/// several tries (each its own set of fresh processes, with a pause between tries), accepted
/// when the tries' medians agree within a stated tolerance (MLPerf Mobile: 5 %).
///
/// Agreement is the largest try's median over the smallest's, minus 1, against the tolerance;
/// the tries are kept, so a reader sees them, not only the answer.
public struct Repeatability: Sendable {
    /// MLPerf Mobile's tolerance: tries must agree within 5 %.
    public static let mlperfTolerance = 0.05

    /// The figure's label, for example "TFLite fp32 · 1 thread".
    public var label: String
    /// Each try's result (across its processes), in the order run.
    public var tries: [BenchmarkResult]
    /// The largest relative difference allowed between tries (0.05: 5 %).
    public var tolerance: Double
    /// The pause between tries, in seconds.
    public var pauseSeconds: Double

    /// Creates a repeatability record from tries already measured.
    /// - Parameters:
    ///   - label: the figure's label.
    ///   - tries: the tries' results.
    ///   - tolerance: the allowed relative difference.
    ///   - pauseSeconds: the pause there was between tries.
    public init(label: String, tries: [BenchmarkResult], tolerance: Double = Repeatability.mlperfTolerance, pauseSeconds: Double) {
        self.label = label
        self.tries = tries
        self.tolerance = tolerance
        self.pauseSeconds = pauseSeconds
    }

    /// Each try's median with its interval.
    public var medians: [ConfidenceInterval] { tries.map(\.medianInterval) }

    /// The largest try's median over the smallest's, minus 1 (0.021: the tries lie within 2.1 %).
    public var range: Double {
        let values = medians.map(\.estimate)
        guard let low = values.min(), let high = values.max(), low > 0 else { return .nan }
        return high / low - 1
    }

    /// Whether the tries agree within ``tolerance`` (false for fewer than 2 tries).
    public var agrees: Bool { tries.count >= 2 && range <= tolerance }

    /// One line: "TFLite fp32 · 1 thread: 5 tries agree within 5 % (they lie within 2.1 %:
    /// 9.41, 9.52, 9.38, 9.60, 9.45 ms; each 3 processes × 20 runs)".
    public var summary: String {
        let values = medians.map(\.estimate)
        let unit = (values.max() ?? 0) >= 1 ? ("s", 1.0) : ((values.max() ?? 0) >= 1e-3 ? ("ms", 1e3) : ("µs", 1e6))
        let list = values.map { DurationFormat.fixed($0 * unit.1, decimals: IntervalFormat.decimalsFor($0 * unit.1)) }
            .joined(separator: ", ") + " " + unit.0
        let tolerance = Self.percent(self.tolerance), range = Self.percent(self.range)
        let verdict = agrees ? "agree within \(tolerance)" : "do not agree within \(tolerance)"
        let each = tries.first.map { "; each \($0.intervalCoverage.split(separator: ";").first ?? "")" } ?? ""
        return "\(label): \(tries.count) tries \(verdict) (they lie within \(range): \(list)\(each), "
            + "\(DurationFormat.fixed(pauseSeconds, decimals: 0)) s apart)"
    }

    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return DurationFormat.fixed(value, decimals: value == value.rounded() ? 0 : 1) + " %"
    }
}

extension Repeatability: NotebookDisplayable, CustomStringConvertible {
    /// The summary as text.
    public var mimeBundle: MimeBundle { MimeBundle(plainText: summary) }
    /// The ``summary``.
    public var description: String { summary }
}

extension Benchmark {
    /// Measures the variants as `tries` separate tries, each across `processes` fresh processes
    /// in turns (``acrossProcesses(_:processes:worker:)``), with a pause between tries, and
    /// reports per variant whether the tries agree within `tolerance`.
    /// - Parameters:
    ///   - variants: the figures to repeat.
    ///   - tries: how many tries (MLPerf Mobile: 5).
    ///   - processes: fresh processes per variant and try.
    ///   - pauseSeconds: the pause between tries (interruptible).
    ///   - tolerance: the allowed relative difference between tries' medians.
    ///   - worker: the worker executable; found as ``BenchmarkWorker/located(settings:)`` does by default.
    /// - Returns: one ``Repeatability`` per variant, in the order given.
    /// - Throws: what ``acrossProcesses(_:processes:worker:)`` throws; `InterruptedError` during a pause.
    public func repeatability(_ variants: [ModelVariant], tries: Int = 5, processes: Int = 3, pauseSeconds: Double = 10,
                              tolerance: Double = Repeatability.mlperfTolerance,
                              worker: BenchmarkWorker? = nil) throws -> [Repeatability] {
        guard tries >= 2 else { throw BenchmarkError.invalidOptions("tries is \(tries); a repeat needs at least 2") }
        let worker = try worker ?? BenchmarkWorker.located()
        var results = [[BenchmarkResult]](repeating: [], count: variants.count)
        for attempt in 0..<tries {
            if attempt > 0 { try Self.pause(pauseSeconds, activity: "The repeatability of \"\(name)\"") }
            var attemptBenchmark = self
            attemptBenchmark.name = "\(name), try \(attempt + 1) of \(tries)"
            let table = try attemptBenchmark.acrossProcesses(variants, processes: processes, worker: worker)
            for (index, result) in table.results.enumerated() { results[index].append(result) }
        }
        return zip(variants, results).map {
            Repeatability(label: $0.label, tries: $1, tolerance: tolerance, pauseSeconds: pauseSeconds)
        }
    }

    /// Sleeps `seconds` in short steps, stopping with `InterruptedError` on an interrupt.
    static func pause(_ seconds: Double, activity: String) throws {
        let end = monotonicNanoseconds() &+ UInt64(max(seconds, 0) * 1e9)
        while monotonicNanoseconds() < end {
            try Interrupt.check(activity)
            usleep(100_000)
        }
    }
}
