import BenchbookRuntime

/// How a candidate's run times compare with a baseline's: the ratio of the medians with its
/// 95 % bootstrap interval, a rank test, and a verdict computed from the interval.
///
/// **Noise rule.** The verdict is *within noise* whenever the interval of the median ratio
/// contains 1. Two variants measured apart (one after the other, or in separate runs of a
/// notebook) also differ by what the machine did between them: measured here, up to 5 %
/// between back-to-back runs of the same code on a loaded 2-core VM. So for those the
/// interval must also clear a ±5 % band (``separateRunsBand``) before a difference counts.
/// Variants measured interleaved (``Benchmark/interleave(_:)``: A B A B …) share every drift,
/// are resampled round by round, and need only clear 1.
///
/// The two-sided Mann–Whitney U test is reported beside the interval (``test``): a
/// difference in ranks, not a size; the verdict follows the interval.
public struct BenchmarkComparison: Sendable, Equatable, Codable {
    /// How far from 1 a ratio of variants measured apart must be before it counts.
    public static let separateRunsBand = 0.05
    /// The p-value below which the rank test reports that the run times differ in rank.
    public static let significanceLevel = 0.01

    /// Which way the candidate differs from the baseline.
    public enum Direction: String, Sendable, Equatable, Codable {
        /// The candidate's median is lower beyond noise.
        case faster
        /// The candidate's median is higher beyond noise.
        case slower
        /// The interval does not rule out "no difference".
        case withinNoise
    }

    /// Name of the baseline.
    public var baselineName: String
    /// Name of the candidate.
    public var candidateName: String
    /// Candidate median divided by baseline median (above 1: the candidate is slower).
    public var medianRatio: Double
    /// ``medianRatio`` with its 95 % bootstrap interval.
    public var medianRatioInterval: ConfidenceInterval
    /// Candidate p90 divided by baseline p90.
    public var p90Ratio: Double
    /// The rank test on the two sets of run times.
    public var test: MannWhitneyTest
    /// Whether the two sides were measured in the same interleaved rounds (then the interval
    /// is computed round by round and no drift band applies).
    public var isInterleaved: Bool
    /// The verdict.
    public var direction: Direction

    /// Compares two sets of run times.
    /// - Parameters:
    ///   - baselineName: label of the baseline.
    ///   - baseline: the baseline's run times.
    ///   - candidateName: label of the candidate.
    ///   - candidate: the candidate's run times.
    ///   - interleaved: whether run `i` of both was measured in the same round (A B A B …);
    ///     needs equal counts.
    public init(baselineName: String, baseline: [Double], candidateName: String, candidate: [Double],
                interleaved: Bool = false) {
        self.baselineName = baselineName
        self.candidateName = candidateName
        let paired = interleaved && baseline.count == candidate.count
        isInterleaved = paired
        medianRatioInterval = Bootstrap.ratio(50, candidate: candidate, baseline: baseline, paired: paired)
        medianRatio = medianRatioInterval.estimate
        let base = LatencyStatistics(samples: baseline)
        let cand = LatencyStatistics(samples: candidate)
        p90Ratio = base.p90 > 0 ? cand.p90 / base.p90 : .nan
        test = MannWhitneyTest(candidate, baseline)
        let band = paired ? 0 : Self.separateRunsBand
        let interval = medianRatioInterval
        if interval.upper < 1 && interval.upper < 1 / (1 + band) {
            direction = .faster
        } else if interval.lower > 1 && interval.lower > 1 + band {
            direction = .slower
        } else {
            direction = .withinNoise
        }
    }

    /// Whether the difference is beyond noise (``direction`` is not ``Direction/withinNoise``).
    public var isBeyondNoise: Bool { direction != .withinNoise }

    /// How much faster the candidate is: baseline median ÷ candidate median, with its interval
    /// (above 1: faster).
    public var speedup: ConfidenceInterval { medianRatioInterval.reciprocal }

    /// The comparison as a clause that names both sides, computed from the interval, for
    /// example "1.42× faster than TFLite fp32 · 1 thread (95 % interval 1.35–1.50×)" or
    /// "within noise of TFLite fp32 · 1 thread (ratio 0.98×, 95 % interval 0.93–1.04×)".
    /// - Parameter baseline: how to name the baseline; ``baselineName`` when nil.
    public func phrase(than baseline: String? = nil) -> String {
        let other = baseline ?? baselineName
        switch direction {
        case .faster:
            return "\(Self.factor(speedup.estimate)) faster than \(other) (\(Self.intervalText(speedup)))"
        case .slower:
            return "\(Self.factor(medianRatio)) slower than \(other) (\(Self.intervalText(medianRatioInterval)))"
        case .withinNoise:
            let band = isInterleaved ? "" : "; measured apart, so differences within ±5 % are drift"
            return "within noise of \(other) (time ratio \(Self.factor(medianRatio)), "
                + "\(Self.intervalText(medianRatioInterval))\(band))"
        }
    }

    /// The comparison as a sentence naming both sides, computed from the interval, for example
    /// "TFLite fp32 · 2 threads is 1.42× faster than TFLite fp32 · 1 thread (95 % interval
    /// 1.35–1.50×)." or "A and B are within noise of each other (time ratio 0.98×, 95 % interval
    /// 0.93–1.04×)."
    /// - Parameters:
    ///   - candidate: how to name the candidate; ``candidateName`` when nil.
    ///   - baseline: how to name the baseline; ``baselineName`` when nil.
    public func sentence(_ candidate: String? = nil, than baseline: String? = nil) -> String {
        let subject = candidate ?? candidateName, other = baseline ?? baselineName
        guard direction == .withinNoise else { return "\(subject) is \(phrase(than: other))." }
        let band = isInterleaved ? "" : "; measured apart, so differences within ±5 % are drift"
        return "\(subject) and \(other) are within noise of each other (time ratio \(Self.factor(medianRatio)), "
            + "\(Self.intervalText(medianRatioInterval))\(band))."
    }

    /// The ``phrase(than:)`` as a sentence with the rank test beside it, for example "candidate is
    /// 1.25× slower than baseline (95 % interval 1.20–1.31×), beyond noise; rank test on the two
    /// samples: Mann–Whitney p < 0.0001". The direction is stated once, by the phrase (a rank
    /// test can be significant for a difference that is within noise, such as drift between two
    /// benchmarks measured apart).
    public var verdict: String {
        let noise = isBeyondNoise ? ", beyond noise" : ""
        let p = test.pValue < 1e-4 ? "p < 0.0001" : "p = \(DurationFormat.fixed(test.pValue, decimals: 4))"
        return "\(candidateName) is \(phrase())\(noise); rank test on the two samples: Mann–Whitney \(p)"
    }

    /// A ratio as "1.42×" (three decimals when two would round it to 1.00).
    static func factor(_ value: Double) -> String { number(value, decimals: decimals(value)) + "×" }

    /// "95 % interval 1.35–1.50×", with three decimals when two would show a bound as 1.00
    /// (so a verdict never sits next to an interval that reads "1.00").
    static func intervalText(_ interval: ConfidenceInterval) -> String {
        let digits = max(decimals(interval.lower), decimals(interval.upper), decimals(interval.estimate))
        return "\(interval.levelText) interval \(number(interval.lower, decimals: digits))–\(number(interval.upper, decimals: digits))×"
    }

    private static func decimals(_ value: Double) -> Int { abs(value - 1) < 0.005 ? 3 : 2 }

    private static func number(_ value: Double, decimals: Int) -> String { DurationFormat.fixed(value, decimals: decimals) }
}

extension BenchmarkComparison: NotebookDisplayable, CustomStringConvertible {
    /// The ``verdict`` as text, and with the ratios as HTML.
    public var mimeBundle: MimeBundle {
        let i = medianRatioInterval
        let html = "<p>\(HTML.escape(verdict))<br>median ratio \(DurationFormat.fixed(medianRatio, decimals: 3)) "
            + "(\(i.levelText) interval \(DurationFormat.fixed(i.lower, decimals: 3))–\(DurationFormat.fixed(i.upper, decimals: 3))"
            + "\(isInterleaved ? ", interleaved rounds" : ", measured apart: ±5 % band")), "
            + "p90 ratio \(DurationFormat.fixed(p90Ratio, decimals: 3))</p>"
        return MimeBundle(plainText: description).adding("text/html", html)
    }

    /// The ``verdict``.
    public var description: String { verdict }
}

extension SingleTiming: NotebookDisplayable {
    /// The IPython-style two lines as text.
    public var mimeBundle: MimeBundle { MimeBundle(plainText: description) }
}
