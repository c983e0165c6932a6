import BenchbookBenchmark
import Foundation
import Testing

/// Reference values from NumPy (scripts/bench/make_statistics_fixture.py).
struct StatisticsReference: Decodable {
    struct Case: Decodable {
        var name: String
        var samples: [Double]
        var min: Double, max: Double, mean: Double, std: Double, median: Double, p90: Double, p99: Double
        var percentiles: [String: Double]
    }
    struct RankTest: Decodable {
        var name: String
        var first: [Double], second: [Double]
        var u: Double, p: Double
    }
    var statistics: [Case]
    var mann_whitney: [RankTest]

    static func load() throws -> StatisticsReference {
        try JSONDecoder().decode(Self.self, from: Data(contentsOf: Fixture.benchmark("statistics-reference.json")))
    }
}

@Suite struct StatisticsTests {
    @Test func matchesNumPyOnRecordedSamples() throws {
        let reference = try StatisticsReference.load()
        #expect(reference.statistics.count >= 6)
        for item in reference.statistics {
            let s = LatencyStatistics(samples: item.samples)
            #expect(s.count == item.samples.count, "\(item.name)")
            #expect(s.minimum == item.min, "\(item.name) min")
            #expect(s.maximum == item.max, "\(item.name) max")
            #expect(close(s.mean, item.mean, relative: 1e-12), "\(item.name) mean \(s.mean) vs \(item.mean)")
            #expect(close(s.standardDeviation, item.std, relative: 1e-9) || abs(s.standardDeviation - item.std) < 1e-18,
                    "\(item.name) std \(s.standardDeviation) vs \(item.std)")
            #expect(close(s.median, item.median), "\(item.name) median \(s.median) vs \(item.median)")
            #expect(close(s.p90, item.p90), "\(item.name) p90 \(s.p90) vs \(item.p90)")
            #expect(close(s.p99, item.p99), "\(item.name) p99 \(s.p99) vs \(item.p99)")
            for (key, expected) in item.percentiles {
                let p = try #require(Double(key))
                let value = LatencyStatistics.percentile(p, of: item.samples)
                #expect(close(value, expected), "\(item.name) p\(key): \(value) vs \(expected)")
            }
        }
    }

    @Test func emptySamplesGiveZeros() {
        let s = LatencyStatistics(samples: [])
        #expect(s.count == 0 && s.median == 0 && s.p90 == 0 && s.standardDeviation == 0)
    }

    @Test func mannWhitneyMatchesReference() throws {
        let reference = try StatisticsReference.load()
        for item in reference.mann_whitney {
            let test = MannWhitneyTest(item.first, item.second)
            #expect(test.u == item.u, "\(item.name) U \(test.u) vs \(item.u)")
            #expect(close(test.pValue, item.p, relative: 1e-9), "\(item.name) p \(test.pValue) vs \(item.p)")
        }
    }

    @Test func aRankDifferenceSmallerThanTheBandIsNotADifference() {
        let base = (0..<200).map { 1e-3 * (1 + 0.01 * sin(Double($0))) }
        let same = (0..<200).map { 1e-3 * (1 + 0.01 * sin(Double($0) + 0.5)) }
        let slower = base.map { $0 * 1.10 }
        let barelySlower = base.map { $0 * 1.03 }

        let noise = BenchmarkComparison(baselineName: "a", baseline: base, candidateName: "b", candidate: same)
        #expect(noise.verdict == .equivalent)
        #expect(abs(noise.medianRatio - 1) < 0.01)

        let real = BenchmarkComparison(baselineName: "a", baseline: base, candidateName: "b", candidate: slower)
        #expect(real.isDifference)
        #expect(close(real.medianRatio, 1.10, relative: 1e-9))
        #expect(real.summary.contains("1.10× slower"))

        // Significant by rank, but measured apart a 3 % shift lies inside the ±5 % drift band.
        let tiny = BenchmarkComparison(baselineName: "a", baseline: base, candidateName: "b", candidate: barelySlower)
        #expect(tiny.test.pValue < BenchmarkComparison.significanceLevel)
        #expect(tiny.verdict == .equivalent)

        let faster = BenchmarkComparison(baselineName: "a", baseline: slower, candidateName: "b", candidate: base)
        #expect(faster.isDifference)
        #expect(faster.summary.contains("1.10× faster"))
    }

    @Test func durationsFormatWithUnits() {
        #expect(DurationFormat.string(1.234e-3) == "1.23 ms")
        #expect(DurationFormat.string(35e-9) == "35.0 ns")
        #expect(DurationFormat.string(850e-6) == "850 µs")
        #expect(DurationFormat.string(2.5) == "2.50 s")
        #expect(DurationFormat.string(0) == "0 ns")
        #expect(DurationFormat.fixed(-0.0004, decimals: 3) == "0.000")
        #expect(DurationFormat.fixed(12.3456, decimals: 2) == "12.35")
    }
}
