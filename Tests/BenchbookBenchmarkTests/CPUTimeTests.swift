@testable import BenchbookBenchmark
import Foundation
import Testing

extension SerialBenchmarkTests {
/// CPU-seconds per run: measured around every run, for single and interleaved benchmarks.
@Suite struct CPUTimeTests {
    static let options = BenchmarkOptions(
        warmupRuns: 2, minimumWarmupSeconds: 0, minimumRuns: 40, minimumSeconds: 0.3, showsProgress: false)

    /// Work that takes a few milliseconds of one core.
    static func spin() {
        var x = 0.0
        for i in 0..<400_000 { x += Double(i).squareRoot() }
        precondition(x > 0)
    }

    // Whether a sleep costs no CPU and a second thread's work is counted is tested in a process
    // of its own (Tests/python/test_models.py, `benchbook-models costs`): other suites run in
    // this process at the same time, and their threads' CPU time is this process's too.

    @Test func interleavedResultsCarryCPUPerRunAndItsRatio() throws {
        let table = try Benchmark("cpu", options: Self.options).interleave([
            BenchmarkVariant("spin", body: { Self.spin() }),
            BenchmarkVariant("spin twice", body: { Self.spin(); Self.spin() }),
        ])
        #expect(table.results.allSatisfy { $0.cpuSamples?.count == $0.samples.count })
        let spinning = try #require(table.results[0].cpuPerRun)
        #expect(spinning.lower <= spinning.estimate && spinning.estimate <= spinning.upper && spinning.estimate > 0)
        let ratio = try #require(table.results[1].cpuRatio(to: table.results[0]))
        #expect(ratio.lower <= ratio.estimate && ratio.estimate <= ratio.upper && ratio.estimate > 1)
        #expect(table.results[0].cpuRatio(to: table.results[0]).map { close($0.estimate, 1) } == true)
        // The CSV carries the same figures.
        let header = table.csv.split(separator: "\r\n")[0].split(separator: ",").map(String.init)
        let row = table.csv.split(separator: "\r\n")[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(header.count == row.count)
        let column = try #require(header.firstIndex(of: "cpu_ms"))
        let cpu = try #require(Double(row[column]))
        #expect(close(cpu, spinning.estimate * 1e3, relative: 1e-5))
        #expect(table.description.contains("CPU per run (95 % interval)"))
    }

    @Test func singleBenchmarkRecordsCPUPerCall() throws {
        var options = Self.options
        options.innerIterations = 3
        let result = try Benchmark("spin ×3", options: options).run { Self.spin() }
        let cpu = try #require(result.cpuPerRun)
        #expect(result.cpuSamples?.count == result.samples.count)
        #expect(cpu.estimate > 0)
        // Per call, like the latency samples: a run's CPU time over its three calls.
        var costs = RunCosts(energy: .unavailable(reason: "test"), maximumSamples: BenchmarkOptions.defaultMaximumSamples)
        let mark = costs.begin()
        Self.spin()
        costs.end(mark)
        let seconds = try #require(costs.cpuSeconds(inner: 1).first)
        #expect(seconds > 0)
        #expect(costs.cpuSeconds(inner: 3).count == 1 && close(costs.cpuSeconds(inner: 3)[0], seconds / 3))
        #expect(costs.energy(inner: 3) == EnergyPerRun(unavailable: "test"))
        #expect(result.description.contains("p90"))
        #expect(result.rows.contains { $0.0 == "CPU time per run (95 % interval)" })
    }

    @Test func energyIsReadOrItsAbsenceSaid() throws {
        let result = try Benchmark("energy", options: .init(warmupRuns: 0, minimumWarmupSeconds: 0, minimumRuns: 5,
                                                             minimumSeconds: 0, showsProgress: false)).run { usleep(100) }
        let energy = try #require(result.energy)
        if FileManager.default.fileExists(atPath: EnergyMeter.defaultRoot) {
            // Where the counters exist they are read, or the reason names the file.
            #expect(energy.isAvailable || energy.unavailableReason?.contains(EnergyMeter.defaultRoot) == true)
        } else {
            #expect(energy.unavailableReason == "not available on this machine: no /sys/class/powercap")
            #expect(result.rows.contains { $0 == ("energy per run", "not available on this machine: no /sys/class/powercap") })
            let table = BenchmarkTable(title: "t", results: [result])
            #expect(table.csv.contains(",not available on this machine: no /sys/class/powercap\r\n"))
        }
    }

    @Test func recordsKeepCPUAndEnergyAndOldRecordsReadWithout() throws {
        let zone = PowercapZone(identifier: "intel-rapl:0", name: "package-0", maximumMicrojoules: 1000)
        let result = BenchmarkResult(
            name: "r", options: BenchmarkOptions(), initSeconds: nil, firstRunSeconds: 0.01, warmupRuns: 1,
            warmupSeconds: 0.01, samples: [0.010, 0.011, 0.012], measuredSeconds: 0.033, stoppedAtTimeLimit: false,
            peakResidentBytes: 1, cpuSamples: [0.019, 0.021, 0.020],
            energy: EnergyPerRun(zones: [zone], joulesPerRun: [0.5], packageSamples: [0.4, 0.5, 0.6]))
        let data = try BenchmarkRecord.encoder.encode(result)
        let read = try BenchmarkRecord.decoder.decode(BenchmarkResult.self, from: data)
        #expect(read == result)
        #expect(read.cpuPerRun.map { close($0.estimate, 0.020) } == true)
        #expect(read.coresBusy.map { close($0, 0.060 / 0.033) } == true)
        #expect(read.energy?.summary.hasPrefix("500 mJ (") == true)
        // A record from before: no cpuSamples, no energy.
        let parsed = try JSONSerialization.jsonObject(with: data)
        var object = try #require(parsed as? [String: Any])
        object.removeValue(forKey: "cpuSamples")
        object.removeValue(forKey: "energy")
        let old = try BenchmarkRecord.decoder.decode(BenchmarkResult.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.cpuSamples == nil && old.cpuPerRun == nil && old.energy == nil && old.coresBusy == nil)
    }
}
}
