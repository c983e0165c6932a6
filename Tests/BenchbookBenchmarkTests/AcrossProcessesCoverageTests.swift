@testable import BenchbookBenchmark
import BenchbookRuntime
import Foundation
import Testing

/// The interval across processes against the one it replaces, on synthetic processes whose
/// within- and between-process spreads are known: each process draws its own level
/// (log-normal, σ 5 % between processes), each run varies around it (σ 5 % within), and the
/// figure's true value is the median over processes. Coverage is the share of trials whose
/// interval contains the true value; a 95 % interval should cover it in about 95 % of them.
/// Measured with these seeds: across processes 95.3 % (5 × 30, 2,000 trials), 95.2 % (3 × 20),
/// ratios 95.1 % in turns and 95.8 % Welch; the bootstrap of one process's runs 31.5 % (200
/// trials), of five processes' runs pooled 47.3 % (150 trials).
@Suite struct AcrossProcessesCoverageTests {
    static let truth = 0.010         // 10 ms
    static let between = 0.05        // σ of a process's log level
    static let within = 0.05         // σ of a run's log time around its process's level

    /// A standard normal draw (Box–Muller on two SplitMix64 outputs).
    static func normal(_ generator: inout SplitMix64) -> Double {
        let u1 = (Double(generator.next() >> 11) + 0.5) * 0x1p-53, u2 = Double(generator.next() >> 11) * 0x1p-53
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// `processes` processes of `runs` run times each, around `center`.
    static func processes(_ processes: Int, runs: Int, center: Double = truth, _ generator: inout SplitMix64) -> [[Double]] {
        (0..<processes).map { _ in
            let level = log(center) + between * normal(&generator)
            return (0..<runs).map { _ in exp(level + within * normal(&generator)) }
        }
    }

    /// The share of `trials` intervals (from `interval`) that contain `value`.
    static func coverage(trials: Int, seed: UInt64, value: Double = truth,
                         _ interval: (inout SplitMix64) -> ConfidenceInterval) -> Double {
        var generator = SplitMix64(seed: seed)
        var covered = 0
        for _ in 0..<trials where interval(&generator).contains(value) { covered += 1 }
        return Double(covered) / Double(trials)
    }

    @Test func theIntervalAcrossProcessesCoversTheFigureAboutNineteenTimesInTwenty() {
        let five = Self.coverage(trials: 2000, seed: 45) { AcrossProcesses.median(of: Self.processes(5, runs: 30, &$0)) }
        #expect(five > 0.93 && five < 0.97, "5 processes × 30 runs: \(five)")
        let three = Self.coverage(trials: 2000, seed: 46) { AcrossProcesses.median(of: Self.processes(3, runs: 20, &$0)) }
        #expect(three > 0.93 && three < 0.97, "3 processes × 20 runs: \(three)")
    }

    @Test func theIntervalOfOneProcessOrOfPooledRunsCoversFarLess() {
        // What the figure showed before: the bootstrap of one process's runs.
        let one = Self.coverage(trials: 200, seed: 47) { Bootstrap.percentile(50, of: Self.processes(1, runs: 30, &$0)[0]) }
        #expect(one < 0.5, "one process × 30 runs, bootstrap: \(one)")
        // Five processes' runs pooled and bootstrapped as if they were one sample.
        let pooled = Self.coverage(trials: 150, seed: 48) { Bootstrap.percentile(50, of: Self.processes(5, runs: 30, &$0).flatMap { $0 }) }
        #expect(pooled < 0.65, "5 processes pooled, bootstrap: \(pooled)")
    }

    @Test func aRatioInTurnsCoversTheTrueRatio() {
        // B is 10 % slower; each round's A and B run in their own processes.
        let paired = Self.coverage(trials: 2000, seed: 49, value: 1.1) { generator in
            let a = Self.processes(5, runs: 30, &generator), b = Self.processes(5, runs: 30, center: Self.truth * 1.1, &generator)
            return AcrossProcesses.ratio(candidate: b, baseline: a, paired: true)
        }
        #expect(paired > 0.93 && paired < 0.97, "paired: \(paired)")
        let welch = Self.coverage(trials: 2000, seed: 50, value: 1.1) { generator in
            let a = Self.processes(5, runs: 30, &generator), b = Self.processes(4, runs: 30, center: Self.truth * 1.1, &generator)
            return AcrossProcesses.ratio(candidate: b, baseline: a, paired: false)
        }
        #expect(welch > 0.93 && welch < 0.975, "Welch: \(welch)")
    }

    @Test func tQuantilesMatchTheReferenceValues() {
        // scipy.stats.t.ppf(0.975, df) for df 4, 29.5 (between rows), 40, 120.
        #expect(abs(StudentT.quantile975(degrees: 4) - 2.7764451) < 1e-6)
        #expect(abs(StudentT.quantile975(degrees: 29.5) - 2.0437) < 1e-3)
        #expect(abs(StudentT.quantile975(degrees: 40) - 2.0210754) < 1e-4)
        #expect(abs(StudentT.quantile975(degrees: 120) - 1.9799304) < 1e-4)
        #expect(StudentT.quantile975(degrees: 0.5).isNaN)
    }

    @Test func oneProcessFallsBackToTheBootstrapAndSaysWhatItCovers() {
        var generator = SplitMix64(seed: 51)
        let runs = Self.processes(1, runs: 30, &generator)
        #expect(AcrossProcesses.median(of: runs) == Bootstrap.percentile(50, of: runs[0]))
        var result = BenchmarkResult(name: "m", options: .quick, initSeconds: nil, firstRunSeconds: 0, warmupRuns: 0,
                                     warmupSeconds: 0, samples: runs[0], measuredSeconds: 1, stoppedAtTimeLimit: false,
                                     peakResidentBytes: 0)
        #expect(result.intervalCoverage.hasPrefix("1 process × 30 runs; interval within that one process"))
        let five = Self.processes(5, runs: 30, &generator)
        result.processSamples = five
        #expect(result.intervalCoverage == "5 processes × 30 runs; interval across processes")
        #expect(result.medianInterval == AcrossProcesses.median(of: five))
        #expect(result.processCount == 5)
    }
}
