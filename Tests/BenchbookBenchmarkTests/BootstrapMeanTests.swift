@testable import BenchbookBenchmark
import BenchbookRuntime
import Testing

@Suite struct BootstrapMeanTests {
    @Test func meanIntervalHoldsTheMeanAndNarrowsWithMoreSamples() {
        var generator = SplitMix64(seed: 7)
        let few = (0..<50).map { _ in 1.0 + Double(generator.next(below: 1000)) / 1000 }
        let many = (0..<2000).map { _ in 1.0 + Double(generator.next(below: 1000)) / 1000 }
        let a = Bootstrap.mean(of: few), b = Bootstrap.mean(of: many)
        #expect(close(a.estimate, few.reduce(0, +) / 50))
        #expect(a.lower < a.estimate && a.estimate < a.upper)
        #expect(b.upper - b.lower < (a.upper - a.lower) / 3)
        // Uniform on [1, 2): standard error of the mean of 2,000 is 0.29/√2000 = 0.0065, so ±0.0127.
        #expect(abs((b.upper - b.lower) / 2 - 0.0127) < 0.003)
        #expect(Bootstrap.mean(of: few) == a)   // seeded: the same values, the same interval
        #expect(Bootstrap.mean(of: [3, 3, 3]) == ConfidenceInterval(estimate: 3, lower: 3, upper: 3))
        #expect(Bootstrap.mean(of: []) == ConfidenceInterval(estimate: 0, lower: 0, upper: 0))
        let large = (0..<6000).map { Double($0 % 10) }
        let normal = Bootstrap.mean(of: large)
        #expect(close(normal.estimate, 4.5) && abs((normal.upper - normal.lower) / 2 - 1.96 * 2.8725 / 6000.0.squareRoot()) < 1e-3)
    }

    @Test func ratioOfMeansPairsRoundsUnderDrift() {
        // Both sides drift together round by round; the candidate costs 2× the baseline.
        let drift = (0..<200).map { 1.0 + Double($0) / 100 }
        let baseline = drift.map { $0 * 1.0 }
        let candidate = drift.enumerated().map { $0.element * 2 + ($0.offset % 2 == 0 ? 0.01 : -0.01) }
        let paired = Bootstrap.ratioOfMeans(candidate: candidate, baseline: baseline, paired: true)
        let independent = Bootstrap.ratioOfMeans(candidate: candidate, baseline: baseline)
        #expect(close(paired.estimate, 2, relative: 1e-3))
        #expect(paired.contains(2) && independent.contains(2))
        #expect(paired.upper - paired.lower < (independent.upper - independent.lower) / 10)
        #expect(Bootstrap.ratioOfMeans(candidate: [1], baseline: []).estimate.isNaN)
        #expect(Bootstrap.ratioOfMeans(candidate: [1], baseline: [0]).estimate.isNaN)
    }
}
