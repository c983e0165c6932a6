import BenchbookBenchmark
import Foundation

/// The statistics of counted proportions that accuracy figures rest on: Wilson's interval for
/// one proportion, Newcombe's interval for the difference of two proportions measured on the
/// same items, and McNemar's exact test. Pure functions of counts; no state.
enum ProportionStatistics {
    /// The normal quantile of a two-sided 95 % interval.
    static let z95 = 1.959963984540054

    /// Wilson's score interval for `successes` of `count` (95 %).
    ///
    /// Unlike the normal approximation p ± z·√(p(1−p)/n), it stays within [0, 1] and keeps
    /// its coverage near 0 and 1 (Wilson 1927; Newcombe 1998, "Two-sided confidence intervals
    /// for the single proportion").
    /// - Returns: the interval of `successes / count`; [0, 1] around 0 when `count` is 0.
    static func wilson(_ successes: Int, of count: Int) -> ConfidenceInterval {
        guard count > 0 else { return ConfidenceInterval(estimate: 0, lower: 0, upper: 1) }
        let z = z95, n = Double(count), p = Double(successes) / n
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return ConfidenceInterval(estimate: p, lower: max(0, centre - half), upper: min(1, centre + half))
    }

    /// The 95 % interval of the difference `p₁ − p₂` between two proportions measured on the
    /// same `n` items: Newcombe's hybrid score interval for paired data (Newcombe 1998,
    /// "Improved confidence intervals for the difference between binomial proportions based
    /// on paired data", Statistics in Medicine 17, method 10; Fagerland, Lydersen and Laake
    /// call it the Newcombe square-and-add interval and recommend it, Statistics in Medicine
    /// 33, 2014).
    ///
    /// Each margin gets its Wilson interval; the two are combined by "square and add", with
    /// the correlation between the margins estimated by the phi coefficient of the 2 × 2
    /// table, continuity-corrected as Newcombe does (AD − BC lowered by n/2 when positive,
    /// 0 when that makes it negative; phi is 0 when a margin is empty).
    ///
    /// - Parameters:
    ///   - bothSuccess: items where both succeed.
    ///   - firstOnly: items where only the first succeeds.
    ///   - secondOnly: items where only the second succeeds.
    ///   - bothFail: items where both fail.
    /// - Returns: the difference (first − second) with its bounds, within [−1, 1].
    static func pairedDifference(bothSuccess a: Int, firstOnly b: Int, secondOnly c: Int, bothFail d: Int) -> ConfidenceInterval {
        let total = a + b + c + d
        guard total > 0 else { return ConfidenceInterval(estimate: 0, lower: -1, upper: 1) }
        let n = Double(total)
        let first = wilson(a + b, of: total), second = wilson(a + c, of: total)
        let p1 = first.estimate, p2 = second.estimate
        let margins = [Double(a + b), Double(c + d), Double(a + c), Double(b + d)]
        var phi = 0.0
        if !margins.contains(0) {
            let cross = Double(a) * Double(d) - Double(b) * Double(c)
            let corrected = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross
            phi = corrected / margins.reduce(1, *).squareRoot()
        }
        /// √(x² + y² − 2φxy), never the root of a rounding error below 0.
        func combined(_ x: Double, _ y: Double) -> Double { max(0, x * x + y * y - 2 * phi * x * y).squareRoot() }
        let difference = Double(b - c) / n      // p₁ − p₂, without the rounding of the subtraction
        let lower = difference - combined(p1 - first.lower, second.upper - p2)
        let upper = difference + combined(p2 - second.lower, first.upper - p1)
        return ConfidenceInterval(estimate: difference, lower: max(-1, lower), upper: min(1, upper))
    }

    /// McNemar's exact test, two-sided: given the `b + c` items on which the two disagree,
    /// the probability under "both equally accurate" (each discordant item is the first's
    /// with probability ½) of a split at least as uneven as `b` to `c`.
    ///
    /// The conditional exact variant: p = min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(b + c,
    /// ½), the doubled smaller tail, as statsmodels' `mcnemar(exact=True)`; Binomial(m, ½) is
    /// symmetric, so this is also scipy's `binomtest(b, b + c).pvalue`. Not the mid-p variant,
    /// which subtracts half the observed point's probability and rejects more often.
    /// - Returns: 1 when there is no discordant item.
    static func mcNemarExactPValue(_ b: Int, _ c: Int) -> Double {
        let m = b + c, k = min(b, c)
        guard m > 0, 2 * k < m else { return 1 }
        return min(1, 2 * exp(logBinomialLowerTail(k, of: m)))
    }

    /// log P(X ≤ k) for X ~ Binomial(m, ½), k < m / 2: the term at k from log-gamma, then the
    /// smaller terms by their ratio (each is i / (m − i + 1) of the next), summed relative to it.
    static func logBinomialLowerTail(_ k: Int, of m: Int) -> Double {
        let logChoose: Double = lgamma(Double(m + 1)) - lgamma(Double(k + 1)) - lgamma(Double(m - k + 1))
        let logTerm = logChoose - Double(m) * M_LN2
        var sum = 1.0, term = 1.0, i = k
        while i > 0 {
            term *= Double(i) / Double(m - i + 1)
            sum += term
            if term < sum * 1e-17 { break }
            i -= 1
        }
        return logTerm + log(sum)
    }
}
