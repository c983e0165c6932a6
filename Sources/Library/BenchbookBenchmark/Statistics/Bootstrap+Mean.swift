import BenchbookRuntime
import Foundation

extension Bootstrap {
    /// The interval of the mean of `samples`: the figure to use for a cost that adds up, such
    /// as CPU-seconds or joules per run (the total over N runs is N times the mean).
    ///
    /// Resamples as ``percentile(_:of:)`` does (seeded, so the same values give the same
    /// interval); above ``largeSample`` values, the normal interval mean ± z·s/√n.
    /// - Parameter samples: the values; the interval of an empty set is all zeros.
    /// - Returns: the mean of all samples with the bounds of its 95 % interval.
    public static func mean(of samples: [Double]) -> ConfidenceInterval {
        guard !samples.isEmpty else { return ConfidenceInterval(estimate: 0, lower: 0, upper: 0, level: level) }
        let estimate = samples.reduce(0, +) / Double(samples.count)
        guard samples.count > 1 else { return ConfidenceInterval(estimate: estimate, lower: estimate, upper: estimate, level: level) }
        if samples.count > largeSample {
            let squares = samples.reduce(0) { $0 + ($1 - estimate).squared }
            let error = (squares / Double(samples.count - 1) / Double(samples.count)).squareRoot()
            return ConfidenceInterval(estimate: estimate, lower: estimate - z * error, upper: estimate + z * error, level: level)
        }
        var generator = SplitMix64(seed: meanSeed(samples.count, samples.count, paired: false))
        var values = [Double](repeating: 0, count: resamples)
        for index in 0..<resamples {
            var sum = 0.0
            for _ in 0..<samples.count { sum += samples[generator.next(below: samples.count)] }
            values[index] = sum / Double(samples.count)
        }
        return interval(estimate: estimate, of: &values)
    }

    /// The interval of the ratio of two samples' means (`candidate / baseline`), for example
    /// the CPU-seconds per run of 2 threads over those of 1.
    ///
    /// Paired samples (measured in turns: value `i` of both sides from the same round) are
    /// resampled by round, independent ones side by side, as ``ratio(_:candidate:baseline:paired:)``.
    /// - Parameters:
    ///   - candidate: the candidate's values.
    ///   - baseline: the baseline's values.
    ///   - paired: resample rounds instead of each side; needs equal counts (else independent).
    /// - Returns: the ratio of the means with its 95 % interval; NaN when a side is empty or
    ///   the baseline's mean is not positive.
    public static func ratioOfMeans(candidate: [Double], baseline: [Double], paired: Bool = false) -> ConfidenceInterval {
        let nan = ConfidenceInterval(estimate: .nan, lower: .nan, upper: .nan, level: level)
        guard !candidate.isEmpty, !baseline.isEmpty else { return nan }
        let base = baseline.reduce(0, +) / Double(baseline.count)
        guard base > 0 else { return nan }
        let estimate = candidate.reduce(0, +) / Double(candidate.count) / base
        let pairs = paired && candidate.count == baseline.count
        if max(candidate.count, baseline.count) > largeSample {
            // Delta method on the log ratio; each side's standard error from its own spread.
            let a = mean(of: candidate), b = mean(of: baseline)
            guard a.estimate > 0 else { return nan }
            let error = (((a.upper - a.lower) / (2 * z) / a.estimate).squared
                + ((b.upper - b.lower) / (2 * z) / b.estimate).squared).squareRoot()
            return ConfidenceInterval(estimate: estimate, lower: estimate * exp(-z * error), upper: estimate * exp(z * error), level: level)
        }
        var generator = SplitMix64(seed: meanSeed(candidate.count, baseline.count, paired: pairs))
        var values = [Double](repeating: 0, count: resamples)
        for index in 0..<resamples {
            var top = 0.0, bottom = 0.0
            if pairs {
                for _ in 0..<candidate.count {
                    let round = generator.next(below: candidate.count)
                    top += candidate[round]
                    bottom += baseline[round]
                }
            } else {
                for _ in 0..<candidate.count { top += candidate[generator.next(below: candidate.count)] }
                for _ in 0..<baseline.count { bottom += baseline[generator.next(below: baseline.count)] }
            }
            let ratio = (top / Double(candidate.count)) / (bottom / Double(baseline.count))
            values[index] = bottom > 0 ? ratio : .infinity
        }
        return interval(estimate: estimate, of: &values)
    }

    /// Seeds for the mean's resamples, apart from the percentiles' seeds.
    private static func meanSeed(_ a: Int, _ b: Int, paired: Bool) -> UInt64 {
        0x3EA1_C0DE_0000_0000 ^ UInt64(a) &* 0x9E37_79B9 ^ UInt64(b) &* 0x85EB_CA6B ^ (paired ? 1 : 0)
    }
}
