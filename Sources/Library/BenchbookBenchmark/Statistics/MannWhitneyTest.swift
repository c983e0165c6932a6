import Foundation

/// The two-sided Mann–Whitney U test, used to decide whether two sets of run times differ
/// by more than noise.
///
/// It compares ranks, not means, so a few slow outliers (a page fault, another process)
/// do not decide the answer. The p-value uses the normal approximation with the tie
/// correction and a continuity correction of 0.5 (SciPy's `mannwhitneyu` with
/// `method="asymptotic"`), which is accurate for the sample sizes benchmarks produce
/// (tens to thousands of runs).
public struct MannWhitneyTest: Sendable, Equatable, Codable {
    /// U statistic of the first sample (how many pairs the first sample wins, ties count ½).
    public var u: Double
    /// Two-sided p-value: the chance of a rank difference at least this large if both
    /// samples came from the same distribution.
    public var pValue: Double

    /// Runs the test.
    /// - Parameters:
    ///   - first: one set of measurements.
    ///   - second: the other set.
    public init(_ first: [Double], _ second: [Double]) {
        let n1 = Double(first.count), n2 = Double(second.count)
        guard n1 > 0, n2 > 0 else { u = 0; pValue = 1; return }
        var pooled = first.map { ($0, true) } + second.map { ($0, false) }
        pooled.sort { $0.0 < $1.0 }
        var rankSumFirst = 0.0
        var tieTerm = 0.0
        var index = 0
        while index < pooled.count {
            var end = index
            while end + 1 < pooled.count && pooled[end + 1].0 == pooled[index].0 { end += 1 }
            let rank = Double(index + end) / 2 + 1
            let tied = Double(end - index + 1)
            tieTerm += tied * tied * tied - tied
            for k in index...end where pooled[k].1 { rankSumFirst += rank }
            index = end + 1
        }
        u = rankSumFirst - n1 * (n1 + 1) / 2
        let n = n1 + n2
        let mean = n1 * n2 / 2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { pValue = 1; return }
        let distance = max(abs(u - mean) - 0.5, 0)
        let z = distance / variance.squareRoot()
        pValue = min(1, erfc(z / 2.0.squareRoot()))
    }
}
