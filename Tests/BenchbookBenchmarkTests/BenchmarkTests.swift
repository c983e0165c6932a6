import BenchbookBenchmark
import BenchbookRuntime
import Foundation
import Testing

/// Suites that run benchmarks share the process-wide interrupt flag, so they run one at a time.
@Suite(.serialized) enum SerialBenchmarkTests {}

extension SerialBenchmarkTests {
@Suite struct BenchmarkTests {
    static let fast = BenchmarkOptions(
        warmupRuns: 3, minimumWarmupSeconds: 0, minimumRuns: 20, minimumSeconds: 0.02, showsProgress: false)

    /// Issue 37, item 8: a body that takes nanoseconds made 11.3 M samples in a second.
    @Test func pastTheSampleCapNeighboursAreSummarisedAndEveryRunCounted() throws {
        var calls = 0
        var options = BenchmarkOptions(warmupRuns: 0, minimumWarmupSeconds: 0, minimumRuns: 1, minimumSeconds: 0.05,
                                       showsProgress: false)
        options.maximumSamples = 64
        let result = try Benchmark("tiny", options: options).run { calls += 1 }
        let each = try #require(result.runsPerSample)
        #expect(result.samples.count <= 64 && result.samples.count >= 32, "merged two by two at 64")
        #expect(each > 1 && each & (each - 1) == 0, "a power of two")
        #expect(result.runCount == result.samples.count * each)
        #expect(calls == 1 + result.runCount, "the first run, then every measured run (no warm-up)")
        #expect(result.cpuSamples?.count == result.samples.count, "CPU times summarised like the run times")
        #expect(result.summary.contains("\(result.runCount.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) runs (kept as"))
        #expect(result.summary.contains("samples of \(each) runs each"))
        let reread = try JSONDecoder().decode(BenchmarkResult.self, from: JSONEncoder().encode(result))
        #expect(reread.runCount == result.runCount && reread.runsPerSample == each)
        #expect(result.compared(with: reread).runs == result.runCount, "a comparison counts runs, not samples")
    }

    @Test func aRecordWrittenBeforeTheCapStillReads() throws {
        let result = try Benchmark("sleep", options: Self.fast).run { usleep(100) }
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any])
        object["runs"] = nil
        object["runsPerSample"] = nil
        var options = try #require(object["options"] as? [String: Any])
        options["maximumSamples"] = nil
        object["options"] = options
        let old = try JSONDecoder().decode(BenchmarkResult.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.runCount == old.samples.count && old.options.maximumSamples == BenchmarkOptions.defaultMaximumSamples)
    }

    @Test func runsUntilBothMinimumsAreMet() throws {
        var calls = 0
        let result = try Benchmark("sleep", options: Self.fast).run {
            calls += 1
            usleep(200)
        }
        // 0.02 s of ~0.25 ms runs needs more than 20 runs.
        #expect(result.statistics.count >= 20)
        #expect(result.measuredSeconds >= 0.02)
        #expect(calls == 1 + result.warmupRuns + result.statistics.count)
        #expect(result.warmupRuns == 3)
        #expect(result.statistics.minimum >= 200e-6)
        #expect(!result.stoppedAtTimeLimit)
        #expect(result.peakResidentBytes > 1_000_000)
        #expect(result.samples.count == result.statistics.count)
    }

    @Test func countMinimumWinsForFastCode() throws {
        var options = Self.fast
        options.minimumSeconds = 0
        options.minimumRuns = 1234
        let result = try Benchmark("empty", options: options).run {}
        #expect(result.statistics.count == 1234)
        #expect(result.statistics.median < 1e-6)
    }

    @Test func maximumSecondsStopsEarly() throws {
        let options = BenchmarkOptions(
            warmupRuns: 0, minimumWarmupSeconds: 0, minimumRuns: 1_000_000, minimumSeconds: 0,
            maximumSeconds: 0.01, showsProgress: false)
        let result = try Benchmark("capped", options: options).run { usleep(1000) }
        #expect(result.stoppedAtTimeLimit)
        #expect(result.statistics.count < 100)
        #expect(result.summary.contains("stopped at"))
    }

    @Test func setUpIsTimedOnceAndReceivesThreads() throws {
        var setUps: [Int] = []
        let result = try Benchmark("model", options: Self.fast.with(threads: 3)).run(
            setUp: { threads -> [Float] in
                setUps.append(threads)
                usleep(5000)
                return [Float](repeating: 1, count: 1000)
            },
            measure: { weights in _ = weights.reduce(0, +) })
        #expect(setUps == [3])
        #expect(result.threads == 3)
        let initSeconds = try #require(result.initSeconds)
        #expect(initSeconds >= 0.005)
    }

    @Test func threadSweepMakesOneRowPerCount() throws {
        var seen: [Int] = []
        let table = try Benchmark("sweep", options: Self.fast).sweep(
            threads: [1, 2, 4], setUp: { threads -> Int in seen.append(threads); return threads },
            measure: { _ in })
        #expect(seen == [1, 2, 4])
        #expect(table.results.map(\.threads) == [1, 2, 4])
        #expect(table.results.allSatisfy { $0.initSeconds != nil })
        let bundle = table.mimeBundle
        #expect(bundle.data["text/html"]?.contains("<table>") == true)
        #expect(bundle.data["text/plain"]?.contains("p90") == true)
        #expect(throws: BenchmarkError.emptySweep) {
            try Benchmark().sweep(threads: [], setUp: { $0 }, measure: { _ in })
        }
    }

    @Test func variantSweepUsesVariantNamesAndThreads() throws {
        let table = try Benchmark("variants", options: Self.fast).sweep([
            BenchmarkVariant("a", body: {}),
            BenchmarkVariant("b", threads: 2, setUp: { n in n * 10 }, measure: { _ in }),
        ])
        #expect(table.results.map(\.name) == ["a", "b"])
        #expect(table.results.map(\.threads) == [1, 2])
        #expect(table.results[0].initSeconds == nil)
        #expect(table.results[1].initSeconds != nil)
        #expect(table.csv.hasPrefix("name,threads,runs,"))
    }

    @Test func invalidOptionsAreRejected() {
        var options = Self.fast
        options.minimumRuns = 0
        #expect(throws: BenchmarkError.self) { try Benchmark(options: options).run {} }
    }

    @Test func interruptStopsBetweenRuns() throws {
        Interrupt.install()
        var calls = 0
        let error = #expect(throws: InterruptedError.self) {
            _ = try Benchmark("interrupted", options: Self.fast).run {
                calls += 1
                if calls == 10 {
                    // Process-directed, as the kernel sends it; wait until the handler ran.
                    kill(getpid(), SIGINT)
                    let deadline = Date().addingTimeInterval(2)
                    while !Interrupt.isRequested && Date() < deadline { usleep(100) }
                }
            }
        }
        #expect(calls == 10)
        #expect(error?.description.contains("interrupted") == true)
        #expect(!Interrupt.isRequested)
    }

    @Test func timeReturnsValueAndTiming() throws {
        let (value, timing) = Benchmark.time { () -> Int in usleep(2000); return 42 }
        #expect(value == 42)
        #expect(timing.wallSeconds >= 0.002)
        #expect(timing.description.contains("Wall time:"))
    }

    @Test func timeitBatchesTinyClosures() throws {
        var total = 0
        let result = try Benchmark.timeit { total &+= 1 }
        #expect(result.options.innerIterations > 1)
        #expect(result.statistics.count >= 7)
        #expect(result.statistics.median < 1e-6)
        #expect(result.mimeBundle.data["text/plain"]?.contains("calls") == true)
    }

    @Test func timeitDoesNotRepeatSlowClosuresNeedlessly() throws {
        var calls = 0
        let result = try Benchmark.timeit { calls += 1; usleep(40_000) }
        #expect(result.options.innerIterations == 1)
        #expect(result.statistics.count == 7)
        // Calibration, first run and the 7 measured runs.
        #expect(calls == 9)
    }

    @Test func resultDisplaysAsTable() throws {
        let result = try Benchmark("display", options: Self.fast).run {}
        let bundle = result.mimeBundle
        #expect(bundle.data["text/html"]?.contains("p90") == true)
        #expect(bundle.data["text/plain"]?.hasPrefix("display (1 thread): p90") == true)
    }
}
}
