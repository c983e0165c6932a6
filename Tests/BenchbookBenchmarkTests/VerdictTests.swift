@testable import BenchbookBenchmark
import BenchbookRuntime
import Foundation
import Testing

/// The three verdicts: the rule on intervals, on synthetic run sets whose interval lies inside,
/// outside and across the band, the projection of what would decide an undecided one, and the
/// phrases the notebooks' claim checker reads back.
@Suite struct VerdictTests {
    static func interval(_ estimate: Double, _ lower: Double, _ upper: Double) -> ConfidenceInterval {
        ConfidenceInterval(estimate: estimate, lower: lower, upper: upper)
    }

    @Test func inTurnsADifferenceNeedsOnlyToClearOne() {
        let rule = VerdictRule(measuredApart: false)
        #expect(rule.verdict(for: Self.interval(1.05, 1.01, 1.10)) == .slower)
        #expect(rule.verdict(for: Self.interval(0.95, 0.90, 0.99)) == .faster)
        #expect(rule.verdict(for: Self.interval(1.00, 0.97, 1.03)) == .equivalent)
        // A small difference that is sure and inside the band: the run found it, so it says so.
        #expect(rule.verdict(for: Self.interval(1.02, 1.01, 1.03)) == .slower)
        // Contains 1 and reaches outside ±5 %: nothing is decided.
        #expect(rule.verdict(for: Self.interval(0.95, 0.79, 1.14)) == .undecided)
        #expect(rule.verdict(for: Self.interval(1.02, 0.99, 1.08)) == .undecided)
        #expect(rule.verdict(for: Self.interval(.nan, .nan, .nan)) == .undecided)
    }

    @Test func measuredApartADifferenceMustClearTheDriftBand() {
        let rule = VerdictRule(measuredApart: true)
        #expect(rule.verdict(for: Self.interval(1.20, 1.06, 1.42)) == .slower)
        #expect(rule.verdict(for: Self.interval(0.80, 0.70, 0.94)) == .faster)
        // Excludes 1, but lies inside the drift between runs: no difference larger than the band.
        #expect(rule.verdict(for: Self.interval(1.03, 1.01, 1.04)) == .equivalent)
        // The issue's examples: each was called "within noise".
        #expect(rule.verdict(for: Self.interval(1.26, 1.04, 1.42)) == .undecided)
        #expect(rule.verdict(for: Self.interval(0.996, 0.721, 1.224)) == .undecided)
    }

    @Test func theBandIsSymmetricOnALogScaleAndCanBeStated() {
        let rule = VerdictRule(measuredApart: false)
        #expect(close(rule.lowerEdge * rule.upperEdge, 1))
        #expect(rule.bandText == "±5 %")
        #expect(rule.verdict(for: Self.interval(1.0, 0.953, 1.049)) == .equivalent)
        #expect(rule.verdict(for: Self.interval(1.0, 0.951, 1.049)) == .undecided)
        let wide = VerdictRule(equivalenceBand: 0.10, measuredApart: false)
        #expect(wide.bandText == "±10 %")
        #expect(wide.verdict(for: Self.interval(1.0, 0.93, 1.08)) == .equivalent)
        // Measured apart, a band narrower than the drift widens to it.
        #expect(VerdictRule(equivalenceBand: 0.02, measuredApart: true).band == VerdictRule.driftBand)
        #expect(VerdictRule(equivalenceBand: 0.02, measuredApart: false).band == 0.02)
    }

    /// `count` run times whose median is `median`: the quantiles of a log-logistic distribution
    /// with scale `spread`, in a seeded order (so two sets paired by round are independent). The
    /// median stays put as `count` grows, which is what ``BenchmarkComparison/runsToDecide``
    /// assumes.
    static func runs(_ count: Int, median: Double, spread: Double, seed: UInt64) -> [Double] {
        var values = (0..<count).map { index -> Double in
            let p = (Double(index) + 0.5) / Double(count)
            return median * exp(spread * log(p / (1 - p)))
        }
        var generator = SplitMix64(seed: seed)
        for index in stride(from: count - 1, to: 0, by: -1) { values.swapAt(index, generator.next(below: index + 1)) }
        return values
    }

    @Test(arguments: [false, true])
    func syntheticRunSetsInsideOutsideAndAcrossTheBand(interleaved: Bool) {
        let baseline = Self.runs(400, median: 1e-3, spread: 0.02, seed: 1)
        func compare(_ factor: Double, spread: Double = 0.02, count: Int = 400) -> BenchmarkComparison {
            let candidate = Self.runs(count, median: 1e-3 * factor, spread: spread, seed: 2)
            return BenchmarkComparison(baselineName: "a", baseline: Array(baseline.prefix(count)), candidateName: "b",
                                       candidate: candidate, interleaved: interleaved)
        }
        // Inside: a 1 % difference, narrow interval.
        let inside = compare(1.01)
        #expect(inside.medianRatioInterval.lower > 1 / 1.05 && inside.medianRatioInterval.upper < 1.05)
        #expect(inside.verdict == (interleaved && inside.medianRatioInterval.lower > 1 ? .slower : .equivalent))
        // Outside: 20 % slower and 20 % faster.
        #expect(compare(1.20).verdict == .slower)
        #expect(compare(1 / 1.20).verdict == .faster)
        // Across: a 3 % difference with wide spread and few runs reaches both 1 and past the band.
        let across = compare(1.0, spread: 0.25, count: 11)
        #expect(across.medianRatioInterval.lower < 1 / 1.05 && across.medianRatioInterval.upper > 1.05, "\(across.medianRatioInterval)")
        #expect(across.verdict == .undecided)
        #expect(across.runsToDecide != nil)
    }

    @Test(arguments: [(1.15, Verdict.slower), (1 / 1.15, Verdict.faster), (1.0, Verdict.equivalent)])
    func theProjectedRunCountDecidesWhenTheRatioStaysPut(factor: Double, expected: Verdict) throws {
        // The projection assumes the ratio stays where it is and the interval narrows with √n.
        func compare(_ count: Int) -> BenchmarkComparison {
            BenchmarkComparison(baselineName: "a", baseline: Self.runs(count, median: 1e-3, spread: 0.2, seed: 11),
                                candidateName: "b", candidate: Self.runs(count, median: 1e-3 * factor, spread: 0.2, seed: 12),
                                interleaved: true)
        }
        let few = compare(9)
        #expect(few.verdict == .undecided, "\(few.medianRatioInterval)")
        let needed = try #require(few.runsToDecide)
        #expect(few.phrase().contains("if the ratio stays at \(few.factor(few.medianRatio, as: few.medianRatioInterval)), roughly \(needed) rounds instead of 9 would decide it"))
        // A projection from 9 runs' bootstrap interval is rough (the count that decides was 0.66
        // to 1.5 times the projection on such sets): twice it decides, a third of it does not.
        let more = compare(2 * needed)
        #expect(more.verdict == expected, "\(more.medianRatioInterval) from \(more.runs) rounds, projected \(needed)")
        #expect(compare(max(needed / 3, 9)).verdict == .undecided)
    }

    @Test func phrasesCarryTheIntervalTheirVerdictCameFrom() {
        func comparison(_ factor: Double, spread: Double = 0.01, count: Int = 200, apart: Bool = false) -> BenchmarkComparison {
            BenchmarkComparison(baselineName: "A", baseline: Self.runs(count, median: 1e-3, spread: spread, seed: 31),
                                candidateName: "B", candidate: Self.runs(count, median: 1e-3 * factor, spread: spread, seed: 32),
                                interleaved: !apart)
        }
        let slower = comparison(1.3, apart: true)
        #expect(slower.phrase().range(of: #"^1\.\d\d× slower than A \(95 % interval \d\.\d\d–\d\.\d\d×; measured apart, clear of the ±5 % drift band\)$"#,
                                      options: .regularExpression) != nil, "\(slower.phrase())")
        let equal = comparison(1.0)
        #expect(equal.phrase().hasPrefix("equivalent to A within ±5 % (time ratio "))
        #expect(equal.sentence().hasPrefix("B and A are equivalent within ±5 % (time ratio "))
        let unsure = comparison(1.0, spread: 0.1, count: 11)
        #expect(unsure.verdict == .undecided)
        #expect(unsure.phrase().hasPrefix("undecided against A (time ratio 1.000×, 95 % interval "))
        #expect(unsure.phrase().contains("it includes 1 and reaches outside ±5 %; if the ratio stays at 1.000×, roughly "))
        #expect(unsure.sentence().hasPrefix("B and A: undecided (time ratio "))
        let apartUnsure = comparison(1.0, spread: 0.1, count: 11, apart: true)
        #expect(apartUnsure.phrase().contains("measured apart, so a difference must clear ±5 %"))
        #expect(apartUnsure.phrase().contains(", or measuring both in turns"))
    }

    @Test func boundsNearAnEdgeOfTheVerdictGetThreeDecimals() {
        // 1.0496 would print as 1.05 with two decimals and read as outside the band, and as 1.050 (the edge) with three.
        #expect(BenchmarkComparison.intervalText(Self.interval(1.02, 0.99, 1.0496)) == "95 % interval 0.9900–1.0496×")
        // A lower bound just above 1 under *slower* must not print as 1.000 (notebook 07, beside two busy loops).
        #expect(BenchmarkComparison.intervalText(Self.interval(1.029, 1.0003, 1.058)) == "95 % interval 1.0003–1.0580×")
        #expect(BenchmarkComparison.factor(1.0) == "1.000×")
        #expect(BenchmarkComparison.intervalText(Self.interval(1.2, 1.1, 1.3)) == "95 % interval 1.10–1.30×")
        #expect(BenchmarkComparison.factor(0.9531) == "0.953×")
        // The figure is shown with its bounds' decimals, never fewer: 0.994 is not "0.99×" beside 0.994–0.995×.
        #expect(IntervalFormat.ratio(Self.interval(0.9945, 0.994, 0.995)) == "0.995× (95 % interval 0.994–0.995×)")
    }
}
