import Foundation

/// Intervals whose unit of resampling is the process: what a figure would be in the next
/// fresh process, not only in the one that measured it.
///
/// Each process (a fresh worker, ``Benchmark/acrossProcesses(_:processes:)``) gives one median
/// of its runs; the interval is Student's t over the logarithms of those medians (k − 1 degrees
/// of freedom), back-transformed, so it is a geometric interval and a ratio of two figures is a
/// difference of logs. Run-to-run noise within a process enters through each process's median;
/// the variation between processes enters through the spread of the medians. On synthetic
/// processes with known within- and between-process spread (`AcrossProcessesCoverageTests`),
/// this interval covers the true median in about 95 % of trials with 5 processes, where the
/// bootstrap of one process's runs covers it in about a third.
public enum AcrossProcesses {
    /// The `p`-th percentile of each process's runs, as logarithms; processes with no positive
    /// percentile are left out.
    static func logMedians(_ processes: [[Double]], percentile p: Double = 50) -> [Double] {
        processes.compactMap { runs in
            guard !runs.isEmpty else { return nil }
            let value = LatencyStatistics.percentile(p, ofSorted: runs.sorted())
            return value > 0 ? log(value) : nil
        }
    }

    /// The typical median over processes with its 95 % interval.
    /// - Parameter processes: each process's run times, in seconds.
    /// - Returns: the geometric mean of the processes' medians with Student's t interval over
    ///   their logarithms; with fewer than 2 usable processes, the bootstrap interval of all runs
    ///   (which covers one process only).
    public static func median(of processes: [[Double]]) -> ConfidenceInterval { percentile(50, of: processes) }

    /// The typical `p`-th percentile over processes with its 95 % interval, as ``median(of:)``
    /// computes the median's (90: each process's p90).
    /// - Parameters:
    ///   - p: the percentile, 0 to 100.
    ///   - processes: each process's run times, in seconds.
    public static func percentile(_ p: Double, of processes: [[Double]]) -> ConfidenceInterval {
        let logs = logMedians(processes, percentile: p)
        guard logs.count >= 2 else { return Bootstrap.percentile(p, of: processes.flatMap { $0 }) }
        let (mean, halfWidth) = tInterval(logs)
        return ConfidenceInterval(estimate: exp(mean), lower: exp(mean - halfWidth), upper: exp(mean + halfWidth),
                                  level: Bootstrap.level)
    }

    /// The ratio of two figures' typical medians (`candidate / baseline`) with its 95 % interval.
    ///
    /// Paired (the two measured in the same process rounds, in turns): t over the rounds'
    /// differences of log medians, so whatever a round's machine state did to both cancels.
    /// Unpaired: Welch's t over the two sets of log medians.
    /// - Parameters:
    ///   - candidate: the candidate's processes' run times.
    ///   - baseline: the baseline's.
    ///   - paired: process `i` of both sides came from round `i`; needs equal counts.
    /// - Returns: NaN bounds when either side has fewer than 2 usable processes.
    public static func ratio(candidate: [[Double]], baseline: [[Double]], paired: Bool) -> ConfidenceInterval {
        let a = logMedians(candidate), b = logMedians(baseline)
        let none = ConfidenceInterval(estimate: .nan, lower: .nan, upper: .nan, level: Bootstrap.level)
        guard a.count >= 2, b.count >= 2 else { return none }
        let mean: Double, halfWidth: Double
        if paired && a.count == b.count && a.count == candidate.count && b.count == baseline.count {
            (mean, halfWidth) = tInterval(zip(a, b).map { $0 - $1 })
        } else {
            let (ma, va) = meanAndVariance(a), (mb, vb) = meanAndVariance(b)
            let ea = va / Double(a.count), eb = vb / Double(b.count)
            let error = (ea + eb).squareRoot()
            let degrees = error > 0
                ? (ea + eb) * (ea + eb) / (ea * ea / Double(a.count - 1) + eb * eb / Double(b.count - 1))
                : Double(a.count + b.count - 2)
            mean = ma - mb
            halfWidth = StudentT.quantile975(degrees: degrees) * error
        }
        return ConfidenceInterval(estimate: exp(mean), lower: exp(mean - halfWidth), upper: exp(mean + halfWidth),
                                  level: Bootstrap.level)
    }

    /// The mean of `values` and the half-width of its 95 % t interval.
    static func tInterval(_ values: [Double]) -> (mean: Double, halfWidth: Double) {
        let (mean, variance) = meanAndVariance(values)
        let k = Double(values.count)
        return (mean, StudentT.quantile975(degrees: k - 1) * (variance / k).squareRoot())
    }

    /// Mean and sample variance (n − 1).
    static func meanAndVariance(_ values: [Double]) -> (mean: Double, variance: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.count > 1
            ? values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1) : 0
        return (mean, variance)
    }
}
