import BenchbookBenchmark
import Foundation

/// Measures what the benchmark harness adds to the code it times.
///
/// 1. An empty closure: the per-run time the harness reports (clock reads and the call).
/// 2. A ~1 ms workload, alternating rounds of a plain loop and of the harness in the same
///    process; per round, harness wall time per run divided by plain time per iteration.
///    The median over rounds is the overhead figure (robust to other processes).
struct OverheadMeasurement {
    let rounds = 21
    let runsPerRound = 100

    func run(writingTo directory: URL) throws {
        // 1. Empty closure.
        let empty = try Benchmark("empty closure", options: BenchmarkOptions(
            warmupRuns: 1000, minimumWarmupSeconds: 0.1, minimumRuns: 200_000, minimumSeconds: 0.5,
            showsProgress: false)).run {}
        let emptyWallPerRun = empty.measuredSeconds / Double(empty.statistics.count)

        // 2. Calibrate a ~1 ms workload.
        var iterations = 100_000
        for _ in 0..<5 {
            let start = Date()
            for _ in 0..<20 { spin(iterations) }
            let perCall = Date().timeIntervalSince(start) / 20
            iterations = max(1, Int(Double(iterations) * 1e-3 / perCall))
        }
        let work = iterations
        let options = BenchmarkOptions(
            warmupRuns: 0, minimumWarmupSeconds: 0, minimumRuns: runsPerRound, minimumSeconds: 0,
            showsProgress: false)
        var plainPerRun: [Double] = []
        var harnessWallPerRun: [Double] = []
        var harnessReportedMean: [Double] = []
        var ratios: [Double] = []
        var reportedRatios: [Double] = []
        for _ in 0..<20 { spin(work) }
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<runsPerRound { spin(work) }
            let plain = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9 / Double(runsPerRound)

            let harnessStart = DispatchTime.now().uptimeNanoseconds
            let result = try Benchmark("1 ms workload", options: options).run { spin(work) }
            let harnessWall = Double(DispatchTime.now().uptimeNanoseconds - harnessStart) * 1e-9
            // The first run is part of the harness's work too: count it.
            let wallPerRun = harnessWall / Double(result.statistics.count + 1)
            plainPerRun.append(plain)
            harnessWallPerRun.append(wallPerRun)
            harnessReportedMean.append(result.statistics.mean)
            ratios.append(wallPerRun / plain)
            reportedRatios.append(result.statistics.mean / plain)
        }
        let overhead = LatencyStatistics.percentile(50, of: ratios) - 1
        let reportedDifference = LatencyStatistics.percentile(50, of: reportedRatios) - 1
        let machine = MachineDescription.current

        let text = """
            Benchmark harness overhead (benchbook-bench overhead, release build)
            machine: \(machine.cpuModel), \(machine.coreCount) cores, \(machine.operatingSystem)
            date: \(ISO8601DateFormatter().string(from: Date()))

            empty closure, \(empty.statistics.count) runs:
              reported per run: median \(ns(empty.statistics.median)), mean \(ns(empty.statistics.mean)), p90 \(ns(empty.statistics.p90))
              harness wall time per run (clock reads, bookkeeping, interrupt poll): \(ns(emptyWallPerRun))
              requirement: reported per run < 1 µs -> \(empty.statistics.median < 1e-6 ? "met" : "NOT met")

            ~1 ms workload (\(work) iterations), \(rounds) alternating rounds of \(runsPerRound) runs:
              plain loop per iteration: median \(ms(LatencyStatistics.percentile(50, of: plainPerRun)))
              harness wall time per run: median \(ms(LatencyStatistics.percentile(50, of: harnessWallPerRun)))
              harness reported mean: median \(ms(LatencyStatistics.percentile(50, of: harnessReportedMean)))
              overhead (median over rounds of harness wall per run / plain per iteration - 1): \(pct(overhead))
              reported mean vs plain loop (median over rounds): \(pct(reportedDifference))
              requirement: overhead < 1 % -> \(overhead < 0.01 ? "met" : "NOT met")

            """
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let json: [String: Any] = [
            "command": "swift build -c release --product benchbook-bench && .build/release/benchbook-bench overhead results",
            "date": ISO8601DateFormatter().string(from: Date()),
            "cpu_model": machine.cpuModel, "core_count": machine.coreCount, "os": machine.operatingSystem,
            "empty_closure_runs": empty.statistics.count,
            "empty_closure_median_ns": empty.statistics.median * 1e9,
            "empty_closure_mean_ns": empty.statistics.mean * 1e9,
            "empty_closure_wall_per_run_ns": emptyWallPerRun * 1e9,
            "workload_iterations": work,
            "workload_rounds": rounds, "workload_runs_per_round": runsPerRound,
            "plain_loop_median_ms": LatencyStatistics.percentile(50, of: plainPerRun) * 1e3,
            "harness_wall_per_run_median_ms": LatencyStatistics.percentile(50, of: harnessWallPerRun) * 1e3,
            "harness_overhead_fraction": overhead,
            "reported_mean_vs_plain_fraction": reportedDifference,
            "round_ratios": ratios,
        ]
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: directory.appendingPathComponent("benchmark-overhead.json"))
        try Data(text.utf8).write(to: directory.appendingPathComponent("benchmark-overhead.txt"))
        print(text)
    }

    private func ns(_ value: Double) -> String { DurationFormat.fixed(value * 1e9, decimals: 1) + " ns" }
    private func ms(_ value: Double) -> String { DurationFormat.fixed(value * 1e3, decimals: 4) + " ms" }
    private func pct(_ value: Double) -> String { DurationFormat.fixed(value * 100, decimals: 3) + " %" }
}
