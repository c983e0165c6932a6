import BenchbookBenchmark
import BenchbookModels
import Foundation

/// `profile`: each model's operator profile as one JSON line (read by Tests/python/test_models.py,
/// which checks it against the model graph and Python's profiler).
enum ProfileCommand {
    static func run(models: [String], threads: Int, runs: Int) throws {
        for path in models {
            let model = try Model(contentsOf: path, options: ModelOptions(threads: threads))
            let input = try BenchCommand.sampleInput(for: model)
            // The machine's load while profiling ("quiet": measured long enough, and no thread
            // waited for a core): operators account for a run's wall time only on a quiet machine.
            let (profile, contention) = try CPUContention.measure(threads: threads) { try model.profile(input, runs: runs) }
            let operators = profile.operators.map { entry -> [String: Any] in
                var object: [String: Any] = [
                    "kind": entry.kind, "name": entry.name, "calls": entry.calls, "total_s": entry.totalSeconds,
                    "share": entry.share, "runtime_step": entry.isRuntimeStep,
                ]
                if let implementation = entry.implementation { object["implementation"] = implementation }
                return object
            }
            let record: [String: Any] = [
                "model": path, "format": model.format.rawValue, "threads": profile.threads, "runs": profile.runs,
                "run_s": profile.runSeconds, "operator_s_per_run": profile.operatorSecondsPerRun,
                "run_median_s": profile.runMedian.estimate, "operator_median_s": profile.operatorMedian,
                "coverage": profile.coverage, "complete": profile.isComplete, "all_calls": profile.allCalls,
                "operators": operators, "runtime": profile.runtime,
                "quiet": contention.map { !$0.isContended && $0.wallSeconds >= CPUContention.minimumWallSeconds } ?? false,
                "contention": contention?.summary ?? "not measured",
            ]
            let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            fflush(nil)
        }
    }
}
