import BenchbookBenchmark
import Foundation

/// `benchbook-models spread`: measures the run-to-run spread of latency figures on this
/// processor (`make bench-spread`) and merges it into `results/latency-spread.json`.
///
/// Each run measures every figure across `processes` fresh worker processes, in turns;
/// runs are separated by a pause, so they see the machine as separate runs of a notebook do.
enum SpreadCommand {
    /// Runs the measurement and writes the record.
    /// - Parameters:
    ///   - models: `NAME=FILE` pairs (EfficientNet-Lite0 files by default).
    ///   - photo: the input photo.
    ///   - runs: separate runs (at least 2).
    ///   - pause: seconds between runs.
    ///   - processes: fresh processes per figure and run.
    ///   - minimumRuns: measured runs per process.
    ///   - output: the spread file to merge into.
    ///   - command: the command line, for the record.
    static func run(models: [String], photo: String, runs: Int, pause: Double, processes: Int, minimumRuns: Int,
                    output: String, command: String) throws {
        let variants = models.map { pair -> ModelVariant in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let file = parts.count == 2 ? parts[1] : parts[0]
            return ModelVariant(parts.count == 2 ? parts[0] : (file as NSString).lastPathComponent, model: file, input: .photo(photo))
        }
        let options = BenchmarkOptions(warmupRuns: 3, minimumWarmupSeconds: 0.2, minimumRuns: minimumRuns, minimumSeconds: 0.5,
                                       maximumSeconds: 4, threads: 1, showsProgress: false)
        let worker = try BenchmarkWorker.located()
        let start = Date()
        var loads: [Double] = []
        var tries = [[BenchmarkResult]](repeating: [], count: variants.count)
        for run in 0..<runs {
            if run > 0 { Thread.sleep(forTimeInterval: pause) }
            loads.append(loadAverage())
            let table = try Benchmark("spread run \(run + 1)", options: options).acrossProcesses(variants, processes: processes, worker: worker)
            for (index, result) in table.results.enumerated() {
                tries[index].append(result)
                print("run \(run + 1) of \(runs), load \(loads.last!): \(result.label) \(IntervalFormat.duration(result.medianInterval)), \(result.intervalCoverage)")
            }
        }
        let figures = zip(variants, tries).map { RunSpread.Figure(name: $0.label, medians: $1.map(\.medianInterval.estimate)) }
        for (variant, results) in zip(variants, tries) {
            print(Repeatability(label: variant.label, tries: results, pauseSeconds: pause).summary)
        }
        let spread = RunSpread(machine: .current, date: start, pauseSeconds: pause, processes: processes, figures: figures,
                               command: command, loadAverages: loads)
        try spread.merge(into: URL(fileURLWithPath: output))
        print("run-to-run band on \(spread.machine.cpuModel): ±\(DurationFormat.fixed(spread.band * 100, decimals: 1)) % "
              + "(\(runs) runs, \(figures.count) figures) -> \(output)")
    }

    /// The 1-minute load average, or NaN.
    static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return .nan }
        return Double(text.split(separator: " ").first ?? "") ?? .nan
    }
}
