import BenchbookBenchmark
import BenchbookImage
import BenchbookModels
import BenchbookTensor
import Foundation
import JSONCore

/// `recipe`: the module's recipe measured (notebooks/models/recipe/): per file its test
/// accuracy with its interval (and Python LiteRT's, from recipe.json), its size raw and
/// compressed, latency and CPU-seconds per inference at 1 and 2 threads measured in turns,
/// its operator profile; then the pruned file dense-encoded against sparse-encoded, in turns,
/// with both profiles. Writes Markdown (results/recipe-models.md) and the raw figures as JSON.
enum RecipeCommand {
    struct Row {
        var path: String
        var evaluation: EvaluationResult
        var size: ModelFileSize
        var python: Double?
    }

    static func run(models: [String], dataDirectory: String, reference: String?, seconds: Double,
                    output: String?, command: String) throws {
        let testSet = try FashionMNIST(split: .test, directory: dataDirectory)
        let images = try testSet.tensor(range: 0..<testSet.count)
        let labels = testSet.labels.map(Int.init)
        let python = try pythonAccuracies(reference)
        var rows: [Row] = []
        for path in models {
            let model = try Model(contentsOf: path, options: ModelOptions(threads: 2))
            let evaluation = try model.evaluate(images: images, labels: labels, showsProgress: false)
            rows.append(Row(path: path, evaluation: evaluation, size: try ModelFileSize(contentsOf: path),
                            python: python[(path as NSString).lastPathComponent]))
            print(evaluation.description.split(separator: "\n")[0])
        }
        let options = BenchmarkOptions(warmupRuns: 20, minimumWarmupSeconds: 1, minimumRuns: 200,
                                       minimumSeconds: seconds, maximumSeconds: seconds * 4, showsProgress: false)
        let dense = models.filter { !$0.contains("sparse") }
        var tables: [Int: BenchmarkTable] = [:]
        for threads in [1, 2] {
            tables[threads] = try Benchmark("recipe, \(threads) thread\(threads == 1 ? "" : "s")", options: options)
                .interleave(dense.map { variant($0, threads: threads) })
            print(tables[threads]!.description)
        }
        var profiles: [String: OperatorProfile] = [:]
        for path in models {
            let model = try Model(contentsOf: path, options: ModelOptions(threads: 1))
            profiles[path] = try model.profile(try BenchCommand.sampleInput(for: model), runs: 100)
        }
        let pruned = models.first { $0.hasSuffix("recipe_pruned.tflite") }
        let sparse = models.first { $0.contains("sparse") }
        var sparseTable: BenchmarkTable?
        if let pruned, let sparse {
            sparseTable = try Benchmark("pruned: dense against sparse encoding, 1 thread", options: options)
                .interleave([variant(pruned, threads: 1), variant(sparse, threads: 1)])
            print(sparseTable!.description)
        }
        let text = markdown(rows: rows, tables: tables, profiles: profiles, models: models, sparse: sparseTable,
                            command: command)
        if let output {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
            let raw = RecipeRecord(tables: ([tables[1]!, tables[2]!] + (sparseTable.map { [$0] } ?? [])).map(\.summary),
                                   profiles: models.compactMap { profiles[$0] },
                                   accuracy: rows.map { [$0.evaluation.accuracyInterval.estimate, $0.evaluation.accuracyInterval.lower,
                                                         $0.evaluation.accuracyInterval.upper] },
                                   files: rows.map(\.size), machine: .current, command: command)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            try encoder.encode(raw).write(to: URL(fileURLWithPath: (output as NSString).deletingPathExtension + ".json"))
            print("wrote \(output)")
        } else {
            print(text)
        }
    }

    /// The figures of the Markdown: each table's rows as its CSV has them (the run times
    /// behind them, 9 MB, are not kept), the operator profiles, the accuracies.
    struct RecipeRecord: Codable {
        var tables: [BenchmarkTable.Summary]
        var profiles: [OperatorProfile]
        var accuracy: [[Double]]
        var files: [ModelFileSize]
        var machine: MachineDescription
        var command: String
    }

    static func variant(_ path: String, threads: Int) -> BenchmarkVariant {
        BenchmarkVariant((path as NSString).lastPathComponent, threads: threads,
                         setUp: { threads -> (Model, Tensor) in
                             let model = try Model(contentsOf: path, options: ModelOptions(threads: threads))
                             return (model, try BenchCommand.sampleInput(for: model))
                         },
                         measure: { subject in _ = try subject.0.run([subject.1]) })
    }

    /// File name → accuracy from the script's recipe.json (Python's LiteRT interpreter).
    static func pythonAccuracies(_ path: String?) throws -> [String: Double] {
        guard let path, let data = FileManager.default.contents(atPath: path),
              let files = try JSONValue(parsing: data)["files"]?.objectValue else { return [:] }
        var result: [String: Double] = [:]
        for entry in files.values {
            if let name = entry["file"]?.stringValue, let accuracy = entry["litert_accuracy"]?.doubleValue { result[name] = accuracy }
        }
        return result
    }

    static func markdown(rows: [Row], tables: [Int: BenchmarkTable], profiles: [String: OperatorProfile], models: [String],
                         sparse: BenchmarkTable?, command: String) -> String {
        func name(_ path: String) -> String { (path as NSString).lastPathComponent }
        func percent(_ value: Double) -> String { String(format: "%.2f", value * 100) }
        func result(_ threads: Int, _ path: String) -> BenchmarkResult? {
            tables[threads]?.results.first { $0.name == name(path) }
        }
        var lines = ["# The module's recipe, measured", "",
                     "Made by `scripts/models/make_recipe_models.py` (notebooks/models/recipe/, `MODELS.md`); measured",
                     "from Swift by `BenchbookModels` on LiteRT (`ai-edge-litert` wheel, XNNPACK) on \(MachineDescription.current.cpuModel),",
                     "\(MachineDescription.current.coreCount) cores, shared with other work (each table's CPU column says how free it was).", "",
                     "## Accuracy, size, latency, CPU time", "",
                     "Accuracy: all 10,000 Fashion-MNIST test images, 95 % Wilson interval; Python: the same file in",
                     "`ai_edge_litert.interpreter` (recipe.json). Compressed: zlib level 9 (gzip -9 less its 18-byte header).",
                     "Latency: median (95 % bootstrap interval) of runs measured in turns with the other files at the same",
                     "thread count (A B C D, D C B A, …); CPU: mean CPU-seconds per inference over all threads (user + system,",
                     "`CLOCK_PROCESS_CPUTIME_ID` around each run), with its 95 % bootstrap interval.", "",
                     "| file | accuracy % (95 % interval) | Python % | MB | MB compressed | median 1 thread | median 2 threads | CPU 1 thread | CPU 2 threads |",
                     "|---|---|---|---|---|---|---|---|---|"]
        for row in rows where !row.path.contains("sparse") {
            let a = row.evaluation.accuracyInterval
            let cells = [1, 2].map { result($0, row.path).map { IntervalFormat.duration($0.medianInterval) } ?? "–" }
            let cpu = [1, 2].map { result($0, row.path)?.cpuPerRun.map(IntervalFormat.duration) ?? "–" }
            lines.append("| `\(name(row.path))` | \(percent(a.estimate)) (\(percent(a.lower))–\(percent(a.upper))) | "
                + "\(row.python.map(percent) ?? "–") | \(String(format: "%.3f", Double(row.size.bytes) / 1e6)) | "
                + "\(String(format: "%.3f", Double(row.size.compressedBytes) / 1e6)) | \(cells[0]) | \(cells[1]) | \(cpu[0]) | \(cpu[1]) |")
        }
        if let sparseRow = rows.first(where: { $0.path.contains("sparse") }) {
            let a = sparseRow.evaluation.accuracyInterval
            lines += ["", "`\(name(sparseRow.path))` (the pruned model with the converter's sparse weight encoding): accuracy "
                + "\(percent(a.estimate)) % (\(percent(a.lower))–\(percent(a.upper))), \(String(format: "%.3f", Double(sparseRow.size.bytes) / 1e6)) MB, "
                + "\(String(format: "%.3f", Double(sparseRow.size.compressedBytes) / 1e6)) MB compressed."]
        }
        for threads in [1, 2] {
            guard let table = tables[threads] else { continue }
            lines += ["", "### \(threads) thread\(threads == 1 ? "" : "s"), in turns", "", "```", table.description, "```"]
            if let first = table.results.first {
                lines.append("Machine while measuring: \(first.contention?.summary ?? "not measured").")
                lines.append("Energy: \(first.energy?.summary ?? "not measured").")
            }
            let busy = table.results.map { "\($0.name) \($0.coresBusy.map { String(format: "%.2f", $0) } ?? "–")" }
            lines.append("Cores busy (CPU time over wall time): " + busy.joined(separator: ", ") + ".")
        }
        lines += ["", "## Operator profiles (1 thread, 100 runs; LiteRT's profiler, XNNPACK's operator names)", ""]
        for path in models {
            guard let profile = profiles[path] else { continue }
            lines += ["### `\(name(path))`", "", "```", profile.description, "```", ""]
        }
        if let sparse, sparse.results.count == 2 {
            let comparison = sparse.results[1].compared(with: sparse.results[0])
            lines += ["## Dense against sparse encoding of the pruned model (1 thread, in turns)", "", "```", sparse.description, "```",
                      "Median ratio sparse-encoded / dense-encoded: \(IntervalFormat.ratio(comparison.medianRatioInterval)).", ""]
        }
        lines += ["Reproduce: `\(command)` (or `make recipe-bench`).", ""]
        return lines.joined(separator: "\n")
    }
}

/// `costs`: CPU-seconds (and joules, where `$BENCHBOOK_POWERCAP_ROOT` or `/sys/class/powercap`
/// has counters) per run of three closures measured in turns (a 3 ms sleep, a spin on one
/// thread, the same spin on two threads at once), as one JSON line; in a process of its own,
/// so no other thread of the process adds CPU time (Tests/python/test_models.py).
enum CostsCommand {
    static func spin() {
        var x = 0.0
        for i in 0..<400_000 { x += Double(i).squareRoot() }
        if x < 0 { print(x) }
    }

    static func run() throws {
        let options = BenchmarkOptions(warmupRuns: 3, minimumWarmupSeconds: 0, minimumRuns: 60, minimumSeconds: 0.5,
                                       showsProgress: false)
        let table = try Benchmark("costs", options: options).interleave([
            BenchmarkVariant("sleep", body: { usleep(3000) }),
            BenchmarkVariant("spin", body: { spin() }),
            BenchmarkVariant("spin on 2 threads", threads: 2, body: {
                let done = DispatchSemaphore(value: 0)
                Thread { spin(); done.signal() }.start()
                spin()
                done.wait()
            }),
        ])
        var record: [String: JSONValue] = [:]
        for result in table.results {
            let cpu = result.cpuPerRun!
            var entry: [String: JSONValue] = [
                "cpu_s": .number(cpu.estimate), "cpu_low_s": .number(cpu.lower), "cpu_high_s": .number(cpu.upper),
                "wall_mean_s": .number(result.statistics.mean), "runs": .number(Double(result.samples.count)),
                "cpu_runs": .number(Double(result.cpuSamples?.count ?? 0)), "cores_busy": .number(result.coresBusy ?? 0),
            ]
            if let energy = result.energy, let package = energy.packagePerRun {
                entry["energy_j"] = .number(package.estimate)
                entry["energy_runs"] = .number(Double(energy.packageSamples.count))
                entry["zones"] = .array(zip(energy.zones, energy.joulesPerRun).map {
                    ["name": .string($0.0.name), "joules_per_run": .number($0.1)]
                })
            }
            record[result.name] = .object(entry)
        }
        let ratio = table.results[2].cpuRatio(to: table.results[1])!
        record["ratio_two_to_one"] = .array([ratio.estimate, ratio.lower, ratio.upper].map(JSONValue.number))
        record["energy"] = .string(table.results[0].energy?.summary ?? "not measured")
        print(JSONValue.object(record).serializedText(sortingKeys: true))
    }
}
