import BenchbookBenchmark
import Foundation
import JSONCore

/// Measures what the benchmark harness adds to the code it times.
///
/// 1. An empty closure: the per-run time the harness reports (clock reads and the call).
/// 2. A ~1 ms workload, rounds of plain loop, harness, harness, plain loop (A-B-B-A) in the
///    same process; per round, harness wall time per run divided by plain time per iteration.
///    The median over rounds is the overhead figure (robust to other processes).
struct OverheadMeasurement {
    let rounds = 31
    let runsPerRound = 50

    func run(writingTo directory: URL) throws {
        // 1. Empty closure.
        let empty = try Benchmark("empty closure", options: BenchmarkOptions(
            warmupRuns: 1000, minimumWarmupSeconds: 0.1, minimumRuns: 200_000, minimumSeconds: 0.5,
            showsProgress: false)).run {}
        let emptyWallPerRun = empty.measuredSeconds / Double(empty.statistics.count)

        // 2. Calibrate a ~1 ms workload (median of several timings per step).
        var iterations = 100_000
        for _ in 0..<6 {
            var perCall: [Double] = []
            for _ in 0..<15 {
                let start = DispatchTime.now().uptimeNanoseconds
                spin(iterations)
                perCall.append(Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9)
            }
            iterations = max(1, Int(Double(iterations) * 1e-3 / LatencyStatistics.percentile(50, of: perCall)))
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
        var cpuRatios: [Double] = []
        func plainLoop() -> (wall: Double, cpu: Double) {
            let cpuStart = threadCPUSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<runsPerRound { spin(work) }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
            return (wall / Double(runsPerRound), (threadCPUSeconds() - cpuStart) / Double(runsPerRound))
        }
        func harness() throws -> (wall: Double, mean: Double, cpu: Double) {
            let cpuStart = threadCPUSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try Benchmark("1 ms workload", options: options).run { spin(work) }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
            let cpu = threadCPUSeconds() - cpuStart
            // The first run is part of the harness's work too: count it.
            let runs = Double(result.statistics.count + 1)
            return (wall / runs, result.statistics.mean, cpu / runs)
        }
        for _ in 0..<20 { spin(work) }
        for _ in 0..<rounds {
            // A-B-B-A order cancels a steady drift (frequency, other processes) within a round.
            let plainFirst = plainLoop()
            let harnessFirst = try harness()
            let harnessSecond = try harness()
            let plainSecond = plainLoop()
            let plain = (plainFirst.wall + plainSecond.wall) / 2
            cpuRatios.append((harnessFirst.cpu + harnessSecond.cpu) / (plainFirst.cpu + plainSecond.cpu))
            let wallPerRun = (harnessFirst.wall + harnessSecond.wall) / 2
            let reported = (harnessFirst.mean + harnessSecond.mean) / 2
            plainPerRun.append(plain)
            harnessWallPerRun.append(wallPerRun)
            harnessReportedMean.append(reported)
            ratios.append(wallPerRun / plain)
            reportedRatios.append(reported / plain)
        }
        let overhead = LatencyStatistics.percentile(50, of: ratios) - 1
        let cpuOverhead = LatencyStatistics.percentile(50, of: cpuRatios) - 1
        let boundFromEmpty = emptyWallPerRun / LatencyStatistics.percentile(50, of: plainPerRun)
        let minimumOverhead = (harnessWallPerRun.min() ?? 0) / (plainPerRun.min() ?? 1) - 1
        let reportedDifference = LatencyStatistics.percentile(50, of: reportedRatios) - 1
        let machine = MachineDescription.current
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"

        let text = """
            Benchmark harness overhead (benchbook-bench overhead, release build)
            machine: \(machine.cpuModel), \(machine.coreCount) cores, \(machine.operatingSystem)
            date: \(ISO8601DateFormatter().string(from: Date()))
            load average at the end (1, 5, 15 min): \(load) (other processes share the cores; the
            thread-CPU-time figure is the one preemption does not inflate)

            empty closure, \(empty.statistics.count) runs:
              reported per run: median \(ns(empty.statistics.median)), mean \(ns(empty.statistics.mean)), p90 \(ns(empty.statistics.p90))
              harness wall time per run (clock reads, bookkeeping, interrupt poll): \(ns(emptyWallPerRun))
              requirement: reported per run < 1 µs -> \(empty.statistics.median < 1e-6 ? "met" : "NOT met")

            ~1 ms workload (\(work) iterations), \(rounds) alternating rounds of \(runsPerRound) runs:
              plain loop per iteration: median \(ms(LatencyStatistics.percentile(50, of: plainPerRun)))
              harness wall time per run: median \(ms(LatencyStatistics.percentile(50, of: harnessWallPerRun)))
              harness reported mean: median \(ms(LatencyStatistics.percentile(50, of: harnessReportedMean)))
              overhead (median over rounds of harness wall per run / plain per iteration - 1): \(pct(overhead))
              overhead in thread CPU time (median over rounds; not inflated by preemption): \(pct(cpuOverhead))
              harness cost per run from the empty closure / plain per iteration: \(pct(boundFromEmpty))
              overhead from the fastest round of each: \(pct(minimumOverhead))
              spread of the round ratios (p10 to p90): \(pct(LatencyStatistics.percentile(10, of: ratios) - 1)) to \(pct(LatencyStatistics.percentile(90, of: ratios) - 1))
              reported mean vs plain loop (median over rounds): \(pct(reportedDifference))
              requirement: overhead < 1 % -> wall \(overhead < 0.01 ? "met" : "NOT met"), CPU time \(cpuOverhead < 0.01 ? "met" : "NOT met")

            """
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let json: JSONValue = [
            "command": "swift build -c release --product benchbook-bench && .build/release/benchbook-bench overhead results",
            "date": .string(ISO8601DateFormatter().string(from: Date())),
            "load_average": .string(load),
            "cpu_model": .string(machine.cpuModel), "core_count": .number(Double(machine.coreCount)),
            "os": .string(machine.operatingSystem),
            "empty_closure_runs": .number(Double(empty.statistics.count)),
            "empty_closure_median_ns": .number(empty.statistics.median * 1e9),
            "empty_closure_mean_ns": .number(empty.statistics.mean * 1e9),
            "empty_closure_wall_per_run_ns": .number(emptyWallPerRun * 1e9),
            "workload_iterations": .number(Double(work)),
            "workload_rounds": .number(Double(rounds)), "workload_runs_per_round": .number(Double(runsPerRound)),
            "plain_loop_median_ms": .number(LatencyStatistics.percentile(50, of: plainPerRun) * 1e3),
            "harness_wall_per_run_median_ms": .number(LatencyStatistics.percentile(50, of: harnessWallPerRun) * 1e3),
            "harness_overhead_fraction": .number(overhead),
            "harness_overhead_fraction_fastest_rounds": .number(minimumOverhead),
            "harness_overhead_fraction_thread_cpu": .number(cpuOverhead),
            "harness_cost_per_run_fraction_from_empty_closure": .number(boundFromEmpty),
            "reported_mean_vs_plain_fraction": .number(reportedDifference),
            "round_ratios": .array(ratios.map(JSONValue.number)),
        ]
        try Data(json.serialized(sortingKeys: true, indented: true))
            .write(to: directory.appendingPathComponent("benchmark-overhead.json"))
        try Data(text.utf8).write(to: directory.appendingPathComponent("benchmark-overhead.txt"))
        print(text)
    }

    private func ns(_ value: Double) -> String { DurationFormat.fixed(value * 1e9, decimals: 1) + " ns" }
    private func ms(_ value: Double) -> String { DurationFormat.fixed(value * 1e3, decimals: 4) + " ms" }
    private func pct(_ value: Double) -> String { DurationFormat.fixed(value * 100, decimals: 3) + " %" }
}

/// CPU time of the calling thread (excludes time the thread was not running).
func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
