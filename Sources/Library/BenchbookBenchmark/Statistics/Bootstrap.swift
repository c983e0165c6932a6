import BenchbookRuntime
import Foundation

/// Percentile-bootstrap confidence intervals for latency figures (medians, p90s and their
/// ratios), the method `torch.utils.benchmark` and most benchmark comparisons use when run
/// times are not normally distributed.
///
/// A resample draws as many runs as were measured, with replacement, and computes the
/// statistic on them; the interval holds the middle 95 % of ``resamples`` such values. The
/// generator is seeded from the sample count, so the same runs always give the same
/// interval (a notebook re-executed on the same record shows the same figures).
///
/// Cost: one pass over a counting array per resample (the samples are ranked once), so
/// 2,000 resamples of 5,000 runs are quick (results/benchmark-overhead.txt has the harness's
/// costs); intervals are computed when asked for,
/// never while a benchmark measures. Above ``largeSample`` runs (a benchmark of a very short
/// closure), where resampling would take seconds, the large-sample forms are used instead:
/// a percentile's interval from the ranks a binomial count of runs below it allows (exact
/// for any distribution), and a ratio's from the two sides' intervals on a log scale.
public enum Bootstrap {
    /// Resamples per interval.
    public static let resamples = 2000
    /// The confidence level of every interval Benchbook shows.
    public static let level = 0.95
    /// Above this many runs on a side, intervals use the large-sample forms.
    public static let largeSample = 5000
    /// The normal quantile of the level (two-sided 95 %).
    static let z = 1.959963984540054

    /// The interval of the `p`-th percentile of `samples` (50: the median, 90: the p90).
    /// - Parameters:
    ///   - p: the percentile, 0 to 100.
    ///   - samples: the run times (any order); the interval of an empty set is all zeros.
    /// - Returns: the percentile of all samples with the bounds of its 95 % interval.
    public static func percentile(_ p: Double, of samples: [Double]) -> ConfidenceInterval {
        guard !samples.isEmpty else { return ConfidenceInterval(estimate: 0, lower: 0, upper: 0, level: level) }
        let sorted = samples.sorted()
        let estimate = LatencyStatistics.percentile(p, ofSorted: sorted)
        guard sorted.count > 1 else { return ConfidenceInterval(estimate: estimate, lower: estimate, upper: estimate, level: level) }
        if sorted.count > largeSample { return orderStatisticInterval(p, ofSorted: sorted, estimate: estimate) }
        var generator = SplitMix64(seed: seed(sorted.count, sorted.count, p))
        var ranks = RankDraw(count: sorted.count)
        var values = [Double](repeating: 0, count: resamples)
        for index in 0..<resamples {
            ranks.drawIndependent(using: &generator)
            values[index] = ranks.percentile(p, of: sorted)
        }
        return interval(estimate: estimate, of: &values)
    }

    /// The interval of the ratio of two samples' `p`-th percentiles (`candidate / baseline`).
    ///
    /// Independent samples are resampled separately. Paired samples (measured interleaved:
    /// run `i` of both sides in the same round) are resampled by round, so that a drift that
    /// slowed both sides in the same rounds stays paired and does not widen the interval.
    /// - Parameters:
    ///   - p: the percentile (50 for the median ratio).
    ///   - candidate: the candidate's run times.
    ///   - baseline: the baseline's run times.
    ///   - paired: resample rounds instead of each side; needs equal counts (else independent).
    /// - Returns: the ratio of all samples' percentiles with its 95 % interval; NaN bounds when
    ///   a side is empty or the baseline's percentile is zero.
    public static func ratio(_ p: Double = 50, candidate: [Double], baseline: [Double],
                             paired: Bool = false) -> ConfidenceInterval {
        guard !candidate.isEmpty, !baseline.isEmpty else {
            return ConfidenceInterval(estimate: .nan, lower: .nan, upper: .nan, level: level)
        }
        let sortedCandidate = candidate.sorted(), sortedBaseline = baseline.sorted()
        let base = LatencyStatistics.percentile(p, ofSorted: sortedBaseline)
        guard base > 0 else { return ConfidenceInterval(estimate: .nan, lower: .nan, upper: .nan, level: level) }
        let estimate = LatencyStatistics.percentile(p, ofSorted: sortedCandidate) / base
        if max(candidate.count, baseline.count) > largeSample {
            // Standard errors of each side's log percentile from its interval, added in quadrature.
            let a = percentile(p, of: candidate), b = percentile(p, of: baseline)
            guard a.lower > 0, b.lower > 0 else { return ConfidenceInterval(estimate: estimate, lower: .nan, upper: .nan, level: level) }
            let error = ((log(a.upper / a.lower) / (2 * z)).squared + (log(b.upper / b.lower) / (2 * z)).squared).squareRoot()
            return ConfidenceInterval(estimate: estimate, lower: estimate * exp(-z * error), upper: estimate * exp(z * error), level: level)
        }
        var generator = SplitMix64(seed: seed(candidate.count, baseline.count, p + (paired ? 0.5 : 0)))
        var values = [Double](repeating: 0, count: resamples)
        if paired && candidate.count == baseline.count {
            // Each sample's rank within its own side, so a drawn round maps to both ranks.
            let candidateRanks = ranks(of: candidate), baselineRanks = ranks(of: baseline)
            var draw = RankDraw(count: candidate.count)
            var other = RankDraw(count: baseline.count)
            for index in 0..<resamples {
                draw.drawRounds(using: &generator, ranksA: candidateRanks, ranksB: baselineRanks, into: &other)
                let denominator = other.percentile(p, of: sortedBaseline)
                values[index] = denominator > 0 ? draw.percentile(p, of: sortedCandidate) / denominator : .infinity
            }
        } else {
            var drawCandidate = RankDraw(count: candidate.count)
            var drawBaseline = RankDraw(count: baseline.count)
            for index in 0..<resamples {
                drawCandidate.drawIndependent(using: &generator)
                drawBaseline.drawIndependent(using: &generator)
                let denominator = drawBaseline.percentile(p, of: sortedBaseline)
                values[index] = denominator > 0 ? drawCandidate.percentile(p, of: sortedCandidate) / denominator : .infinity
            }
        }
        return interval(estimate: estimate, of: &values)
    }

    /// The interval of a percentile from order statistics: the number of runs below the true
    /// percentile is binomial (n, p), so the runs at ranks n·p ∓ z·√(n·p·(1 − p)) bound it
    /// (normal approximation of the binomial, exact enough above ``largeSample`` runs).
    private static func orderStatisticInterval(_ p: Double, ofSorted sorted: [Double], estimate: Double) -> ConfidenceInterval {
        let n = Double(sorted.count), q = min(max(p / 100, 0), 1)
        let spread = z * (n * q * (1 - q)).squareRoot()
        let low = max(Int((n * q - spread).rounded(.down)) - 1, 0)
        let high = min(Int((n * q + spread).rounded(.up)), sorted.count - 1)
        return ConfidenceInterval(estimate: estimate, lower: min(sorted[low], estimate), upper: max(sorted[high], estimate), level: level)
    }

    /// The 2.5th and 97.5th percentiles of the resampled values around `estimate`.
    static func interval(estimate: Double, of values: inout [Double]) -> ConfidenceInterval {
        values.sort()
        let tail = (1 - level) / 2 * 100
        return ConfidenceInterval(estimate: estimate,
                                  lower: LatencyStatistics.percentile(tail, ofSorted: values),
                                  upper: LatencyStatistics.percentile(100 - tail, ofSorted: values), level: level)
    }

    /// The rank (0-based position in sorted order, ties broken by position) of each sample.
    private static func ranks(of samples: [Double]) -> [Int] {
        let order = samples.indices.sorted { samples[$0] < samples[$1] || (samples[$0] == samples[$1] && $0 < $1) }
        var ranks = [Int](repeating: 0, count: samples.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }

    /// A seed that depends only on the sizes and the statistic, so results are reproducible.
    private static func seed(_ a: Int, _ b: Int, _ p: Double) -> UInt64 {
        0x5EED_B00C_0000_0000 ^ UInt64(a) &* 0x9E37_79B9 ^ UInt64(b) &* 0x85EB_CA6B ^ UInt64((p * 16).rounded())
    }
}

/// One resample as counts of each rank, from which a percentile is read in one pass
/// (the samples are sorted once, so a rank is a position in the sorted array).
struct RankDraw {
    private(set) var counts: [Int32]
    let count: Int

    init(count: Int) {
        self.count = count
        counts = [Int32](repeating: 0, count: count)
    }

    /// Draws `count` ranks uniformly with replacement.
    mutating func drawIndependent(using generator: inout SplitMix64) {
        for i in 0..<count { counts[i] = 0 }
        for _ in 0..<count { counts[generator.next(below: count)] += 1 }
    }

    /// Draws `count` rounds with replacement; each round adds its A rank here and its B rank to `other`.
    mutating func drawRounds(using generator: inout SplitMix64, ranksA: [Int], ranksB: [Int], into other: inout RankDraw) {
        for i in 0..<count { counts[i] = 0 }
        for i in 0..<other.count { other.counts[i] = 0 }
        for _ in 0..<count {
            let round = generator.next(below: count)
            counts[ranksA[round]] += 1
            other.counts[ranksB[round]] += 1
        }
    }

    /// The `p`-th percentile of the drawn values (NumPy's linear interpolation).
    func percentile(_ p: Double, of sorted: [Double]) -> Double {
        let position = Double(count - 1) * min(max(p, 0), 100) / 100
        let lowerRank = Int(position.rounded(.down))
        let fraction = position - Double(lowerRank)
        // The values at positions lowerRank and lowerRank + 1 of the resample, in sorted order.
        var seen = 0
        var low = sorted[0], high = sorted[0]
        var foundLow = false
        for rank in 0..<count where counts[rank] > 0 {
            let next = seen + Int(counts[rank])
            if !foundLow && lowerRank < next {
                low = sorted[rank]
                foundLow = true
            }
            if lowerRank + 1 < next {
                high = sorted[rank]
                break
            }
            seen = next
            high = sorted[rank]
        }
        return fraction < 0.5 ? low + (high - low) * fraction : high - (high - low) * (1 - fraction)
    }
}

extension Double {
    var squared: Double { self * self }
}
