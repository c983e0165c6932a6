import BenchbookBenchmark
import BenchbookModels
import Foundation
import JSONCore

/// `profile`: each model's operator profile as one JSON line (read by Tests/python/test_models.py,
/// which checks it against the model graph and Python's profiler).
enum ProfileCommand {
    /// - Parameter etdumps: a directory for each ExecuTorch program's ETDump (`<file>.etdp`), or "".
    static func run(models: [String], threads: Int, runs: Int, etdumps: String = "") throws {
        for path in models {
            let model = try Model(contentsOf: path, options: ModelOptions(threads: threads))
            let input = try BenchCommand.sampleInput(for: model)
            // The machine's load while profiling ("quiet": measured long enough, and no thread
            // waited for a core): operators account for a run's wall time only on a quiet machine.
            let (profile, contention) = try CPUContention.measure(threads: threads) { try model.profile(input, runs: runs) }
            let operators = profile.operators.map { entry -> JSONValue in
                var object: [String: JSONValue] = [
                    "kind": .string(entry.kind), "name": .string(entry.name), "calls": .number(Double(entry.calls)),
                    "total_s": .number(entry.totalSeconds), "share": .number(entry.share), "runtime_step": .bool(entry.isRuntimeStep),
                ]
                if let implementation = entry.implementation { object["implementation"] = .string(implementation) }
                return .object(object)
            }
            let record: JSONValue = [
                "model": .string(path), "format": .string(model.format.rawValue), "threads": .number(Double(profile.threads)),
                "runs": .number(Double(profile.runs)),
                "run_s": .array(profile.runSeconds.map(JSONValue.number)),
                "operator_s_per_run": .array(profile.operatorSecondsPerRun.map(JSONValue.number)),
                "run_median_s": .number(profile.runMedian.estimate), "operator_median_s": .number(profile.operatorMedian),
                "coverage": .number(profile.coverage), "complete": .bool(profile.isComplete),
                "all_calls": .object(profile.allCalls.mapValues { .number(Double($0)) }),
                "operators": .array(operators), "runtime": .string(profile.runtime),
                "quiet": .bool(contention.map { !$0.isContended && $0.wallSeconds >= CPUContention.minimumWallSeconds } ?? false),
                "contention": .string(contention?.summary ?? "not measured"),
            ]
            if !etdumps.isEmpty, let etdump = model.lastETDump {
                try etdump.write(to: URL(fileURLWithPath: etdumps).appendingPathComponent((path as NSString).lastPathComponent + ".etdp"))
            }
            print(record.serializedText(sortingKeys: true))
            fflush(nil)
        }
    }
}
