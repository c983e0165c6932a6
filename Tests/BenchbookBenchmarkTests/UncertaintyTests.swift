import BenchbookBenchmark
import BenchbookRuntime
import Foundation
import Testing

/// Bootstrap intervals against NumPy's, comparisons built on them, interleaved measurement,
/// contention, memory footprints and run-against-run tables.
struct BootstrapReference: Decodable {
    struct Case: Decodable {
        var name: String
        var kind: String
        var p: Double?
        var paired: Bool?
        var samples: [Double]?
        var candidate: [Double]?
        var baseline: [Double]?
        var estimate: Double
        var interval: [Double]
    }
    var bootstrap: [Case]
}

@Suite struct BootstrapTests {
    @Test func intervalsAgreeWithNumPysBootstrap() throws {
        let reference = try JSONDecoder().decode(BootstrapReference.self,
                                                 from: Data(contentsOf: Fixture.benchmark("statistics-reference.json")))
        #expect(reference.bootstrap.count == 6)
        for item in reference.bootstrap {
            let interval: ConfidenceInterval
            if item.kind == "percentile" {
                interval = Bootstrap.percentile(item.p ?? 50, of: item.samples ?? [])
            } else {
                interval = Bootstrap.ratio(50, candidate: item.candidate ?? [], baseline: item.baseline ?? [],
                                           paired: item.paired ?? false)
            }
            #expect(close(interval.estimate, item.estimate, relative: 1e-12), "\(item.name) estimate")
            // 2,000 resamples against NumPy's 40,000: the bounds agree to a fraction of the width.
            let width = item.interval[1] - item.interval[0]
            #expect(abs(interval.lower - item.interval[0]) <= 0.2 * width, "\(item.name) lower \(interval.lower) vs \(item.interval[0])")
            #expect(abs(interval.upper - item.interval[1]) <= 0.2 * width, "\(item.name) upper \(interval.upper) vs \(item.interval[1])")
            #expect(interval.lower <= interval.estimate && interval.estimate <= interval.upper, "\(item.name)")
        }
    }

    @Test func largeSamplesUseTheOrderStatisticInterval() {
        // 100,000 uniform runs in [1, 2) ms: the median's interval is about ±0.3 % of the range.
        let runs = (0..<100_000).map { (index: Int) -> Double in
            let position = Double((index &* 7919) % 100_000) / 100_000
            return 1e-3 * (1 + position)
        }
        let median = Bootstrap.percentile(50, of: runs)
        #expect(median.lower < median.estimate && median.estimate < median.upper)
        #expect(abs(median.lower - 1.4969e-3) < 2e-6 && abs(median.upper - 1.5031e-3) < 2e-6, "\(median)")
        let ratio = Bootstrap.ratio(50, candidate: runs.map { $0 * 1.1 }, baseline: runs)
        #expect(close(ratio.estimate, 1.1, relative: 1e-9))
        #expect(ratio.lower > 1.09 && ratio.upper < 1.11, "\(ratio)")
    }

    @Test func intervalsAreReproducibleAndShrinkWithMoreRuns() {
        var generator = SystemRandomNumberGenerator()
        let small = (0..<30).map { _ in 1e-3 * Double.random(in: 0.9...1.1, using: &generator) }
        let large = (0..<3000).map { _ in 1e-3 * Double.random(in: 0.9...1.1, using: &generator) }
        #expect(Bootstrap.percentile(50, of: small) == Bootstrap.percentile(50, of: small))
        let narrow = Bootstrap.percentile(50, of: large), wide = Bootstrap.percentile(50, of: small)
        #expect(narrow.upper - narrow.lower < (wide.upper - wide.lower) / 3)
        #expect(Bootstrap.percentile(50, of: []).estimate == 0)
        #expect(Bootstrap.percentile(90, of: [0.5]) == ConfidenceInterval(estimate: 0.5, lower: 0.5, upper: 0.5))
    }

    @Test func verdictFollowsTheInterval() {
        let base = (0..<200).map { 1e-3 * (1 + 0.02 * sin(Double($0) * 1.7)) }
        // 3 % slower, measured in the same rounds: the interval excludes 1.
        let paired = BenchmarkComparison(baselineName: "a", baseline: base, candidateName: "b",
                                         candidate: base.map { $0 * 1.03 }, interleaved: true)
        #expect(paired.isInterleaved)
        #expect(paired.verdict == .slower)
        #expect(paired.medianRatioInterval.lower > 1)
        #expect(paired.phrase().hasPrefix("1.03× slower than a (95 % interval 1.0"))
        // The same 3 % measured apart: the whole interval lies inside the ±5 % band, which is
        // also the drift between runs, so no difference larger than the band is there.
        let apart = BenchmarkComparison(baselineName: "a", baseline: base, candidateName: "b", candidate: base.map { $0 * 1.03 })
        #expect(apart.verdict == .equivalent)
        #expect(apart.phrase().hasPrefix("equivalent to a within ±5 % (time ratio 1.03×"))
        // The same runs in another order: equivalent.
        let shuffled = base.reversed().map { $0 }
        let same = BenchmarkComparison(baselineName: "a", baseline: base, candidateName: "b", candidate: shuffled, interleaved: true)
        #expect(same.verdict == .equivalent)
        #expect(same.summary.hasPrefix("b and a are equivalent within ±5 %"))
        // The verdict is stated once (the notebooks' claim checker reads every verdict word).
        #expect(same.summary.components(separatedBy: "equivalent").count == 2)
        // Faster: the speed-up is the reciprocal interval.
        let faster = BenchmarkComparison(baselineName: "slow", baseline: base.map { $0 * 2 }, candidateName: "fast",
                                         candidate: base, interleaved: true)
        #expect(faster.verdict == .faster)
        #expect(close(faster.speedup.estimate, 2, relative: 1e-9))
        #expect(faster.phrase().hasPrefix("2.00× faster than slow"))
    }
}

extension SerialBenchmarkTests {
@Suite struct InterleavingTests {
    static let options = BenchmarkOptions(warmupRuns: 2, minimumWarmupSeconds: 0, minimumRuns: 25, minimumSeconds: 0.02,
                                          showsProgress: false)

    @Test func variantsTakeTurnsAndArePairedByRound() throws {
        var order: [String] = []
        let table = try Benchmark("turns", options: Self.options).interleave([
            BenchmarkVariant("short", threads: 1) { order.append("short"); usleep(200) },
            BenchmarkVariant("long", threads: 2) { order.append("long"); usleep(600) },
        ])
        let (short, long) = (table.results[0], table.results[1])
        #expect(short.statistics.count == long.statistics.count)
        #expect(short.statistics.count >= 25)
        #expect(short.interleavedWith == ["long · 2 threads"])
        #expect(long.interleavedWith == ["short · 1 thread"])
        #expect(long.threads == 2)
        // Measured rounds alternate their order: A B, B A, A B, ...
        let measured = Array(order.suffix(2 * short.statistics.count))
        #expect(Array(measured.prefix(4)) == ["short", "long", "long", "short"] || Array(measured.prefix(4)) == ["long", "short", "short", "long"])
        let comparison = long.compared(with: short)
        #expect(comparison.isInterleaved)
        #expect(comparison.verdict == .slower)
        #expect(comparison.medianRatioInterval.lower > 2)
        #expect(short.contention != nil)
    }

    @Test func anInterruptStopsTheTurns() throws {
        Interrupt.install()
        var runs = 0
        #expect(throws: InterruptedError.self) {
            _ = try Benchmark("stopped", options: Self.options).interleave([
                BenchmarkVariant("a") {
                    runs += 1
                    if runs == 5 {
                        kill(getpid(), SIGINT)
                        let deadline = Date().addingTimeInterval(2)
                        while !Interrupt.isRequested && Date() < deadline { usleep(100) }
                    }
                },
                BenchmarkVariant("b") {},
            ])
        }
        #expect(runs == 5)
        #expect(!Interrupt.isRequested)
    }
}
}

// Serial with the other benchmark suites: its benchmark checks the process-wide interrupt
// flag, which would consume the interrupt an interrupt test sends to itself.
extension SerialBenchmarkTests {
@Suite struct ContentionTests {
    @Test func figuresFollowFromTheCounters() {
        let quiet = CPUContention(wallSeconds: 1, processCPUSeconds: 0.98, othersBusySeconds: 0.1, stealSeconds: 0, cores: 2, threads: 1)
        #expect(!quiet.isContended)
        #expect(close(quiet.freeCores, 1.9, relative: 1e-9))
        let busy = CPUContention(wallSeconds: 2, processCPUSeconds: 1.2, othersBusySeconds: 3.2, stealSeconds: 0.2, cores: 2, threads: 1)
        #expect(busy.isContended)
        #expect(close(busy.othersCores, 1.7, relative: 1e-9))
        #expect(!quiet.with(threads: 2).isContended, "a tenth of a core short is within the threshold")
        let shared = CPUContention(wallSeconds: 1, processCPUSeconds: 1.5, othersBusySeconds: 0.5, stealSeconds: 0, cores: 2, threads: 2)
        #expect(shared.isContended, "half a core short of two threads")
        #expect(!shared.with(threads: 1).isContended)
        let short = CPUContention(wallSeconds: 0.05, processCPUSeconds: 0, othersBusySeconds: 0.1, stealSeconds: 0, cores: 2, threads: 2)
        #expect(!short.isContended, "ticks of 10 ms cannot judge 50 ms")
        #expect(busy.summary.hasPrefix("contended: 0.3 of 2 cores free for 1 thread"))
    }

    /// Two busy loops in other processes on this 2-core machine leave no core free: a run
    /// beside them is flagged (whatever else the shared machine does, it cannot free a core).
    @Test func busyProcessesBesideABenchmarkAreFlagged() throws {
        let loops = try (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ -> Process in
            // Bounded by bash's own clock, so a loop outlives this test by 30 s at most even
            // when the test process is killed before its defer runs.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "while (( SECONDS < 30 )); do :; done"]
            try process.run()
            return process
        }
        // SIGKILL: the test process may block SIGTERM, and a child inherits the mask.
        defer { for loop in loops { kill(loop.processIdentifier, SIGKILL); loop.waitUntilExit() } }
        usleep(200_000)
        let result = try Benchmark("beside busy loops", options: BenchmarkOptions(
            warmupRuns: 0, minimumWarmupSeconds: 0, minimumRuns: 10, minimumSeconds: 1, showsProgress: false)).run {
            var x = 0.0
            for i in 0..<20_000 { x += Double(i).squareRoot() }
            blackHole(x)
        }
        let contention = try #require(result.contention)
        #expect(contention.othersCores > Double(contention.cores) - 1, "\(contention.summary)")
        #expect(result.isContended, "\(contention.summary)")
        #expect(result.mimeBundle.data["text/html"]?.contains("contended") == true)
    }
}
}

@inline(never) func blackHole(_ value: Double) { if value.isNaN { print(value) } }

@Suite struct FootprintAndHistoryTests {
    @Test func footprintCountsMemoryTouchedAtThePeakEvenWhenFreed() throws {
        let (_, footprint) = try MemoryFootprint.measure {
            let block = UnsafeMutableRawPointer.allocate(byteCount: 64 << 20, alignment: 64)
            block.initializeMemory(as: UInt8.self, repeating: 1, count: 64 << 20)
            block.deallocate()
        }
        #expect(footprint.increaseBytes >= 60 << 20, "\(footprint)")
        #expect(footprint.increaseBytes < 80 << 20, "\(footprint)")
        let (_, none) = try MemoryFootprint.measure { _ = 1 + 1 }
        #expect(none.increaseBytes < 4 << 20, "\(none)")
    }

    @Test func historyComparesARunWithTheNewestEarlierRecord() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func result(_ name: String, _ threads: Int, _ median: Double) -> BenchmarkResult {
            BenchmarkResult(name: name, options: BenchmarkOptions(threads: threads), initSeconds: nil, firstRunSeconds: median,
                            warmupRuns: 0, warmupSeconds: 0, samples: (0..<60).map { median * (1 + 0.01 * sin(Double($0))) },
                            measuredSeconds: 1, stoppedAtTimeLimit: false, peakResidentBytes: 0)
        }
        let earlier = BenchmarkTable(title: "formats", results: [result("fp32", 1, 0.010), result("int8", 1, 0.008)])
        try earlier.write(to: directory, baseName: "notebook-formats")
        try Data("{\"not\": \"a record\"}".utf8).write(to: directory.appendingPathComponent("notebook-other.json"))
        let history = try BenchmarkHistory(directory: directory, prefix: "notebook-")
        #expect(history.records.count == 2)
        let now = BenchmarkTable(title: "formats", results: [result("fp32", 1, 0.013), result("int8", 1, 0.008), result("fp32", 2, 0.006)])
        // The run-to-run spread measured on this processor is the band (three runs within about 1 %: about ±6 %).
        let spread = RunSpread(machine: .current, date: Date(), pauseSeconds: 30, processes: 3,
                               figures: [RunSpread.Figure(name: "fp32", medians: [0.0100, 0.0101, 0.0099])],
                               command: "test", loadAverages: [1, 1, 1])
        let band = VerdictRule(relation: .apart(spread.summary)).bandText
        let table = history.compare(now, spreads: [spread])
        #expect(table.rows.count == 3)
        #expect(table.rows[0].comparison?.verdict == .slower)
        #expect(table.rows[0].phrase.hasPrefix("1.30× slower than the earlier run"))
        #expect(table.rows[0].phrase.hasSuffix("; measured apart, clear of the \(band) run-to-run spread measured on this processor)"))
        #expect(table.rows[1].comparison?.verdict == .equivalent)
        // No spread measured for this processor: undecided, and it says so.
        let unmeasured = history.compare(now, spreads: [])
        #expect(unmeasured.rows[0].comparison?.verdict == .undecided)
        #expect(unmeasured.rows[0].phrase.contains("no run-to-run spread measured for this processor"))
        // An earlier record from another processor model: never drift, undecided, both named.
        var elsewhere = MachineDescription.current
        elsewhere.cpuModel = "Another CPU"
        let other = history.compare(now, machine: elsewhere, spreads: [spread])
        #expect(other.rows[0].comparison?.verdict == .undecided)
        #expect(other.rows[0].phrase.contains("the processors differ, so this is not drift"))
        #expect(other.rows[0].phrase.contains("this run on Another CPU, the earlier run on \(MachineDescription.current.cpuModel)"))
        #expect(table.rows[2].earlier == nil)
        #expect(table.rows[2].phrase == "no earlier record of this variant")
        let html = try #require(table.mimeBundle.data["text/html"])
        #expect(html.contains("same: \(MachineDescription.current.cpuModel)"))
        #expect(try BenchmarkHistory(directory: directory.appendingPathComponent("missing")).records.isEmpty)
    }
}
