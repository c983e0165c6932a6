import BenchbookBenchmark
import Foundation

/// Writes a small record and a sweep so tests can read them back (the Python tests open
/// the CSV with the `csv` module).
enum SampleRecords {
    static func write(to directory: URL) throws {
        let options = BenchmarkOptions(
            warmupRuns: 1, minimumWarmupSeconds: 0, minimumRuns: 30, minimumSeconds: 0.01,
            showsProgress: false)
        let model = directory.appendingPathComponent("sample-model.bin")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("benchbook sample model\n".utf8).write(to: model)

        let result = try Benchmark("spin, 20k", options: options).run(
            setUp: { threads in 20_000 * threads }, measure: { spin($0) })
        let record = try BenchmarkRecord(
            result, modelFile: model.path, inputShape: [1, 3, 224, 224], runtime: "none (sample)",
            libraryVersions: ["benchbook": "0.1"], notes: "sample record written by benchbook-bench")
        let recordURL = try record.write(to: directory, fileName: "sample-record.json")

        let table = try Benchmark("spin, \"quoted\", name", options: options).sweep([
            BenchmarkVariant("spin 10k", body: { spin(10_000) }),
            BenchmarkVariant("spin 40k", threads: 2, body: { spin(40_000) }),
        ])
        let files = try table.write(
            to: directory, baseName: "sample-sweep", modelFile: model.path, inputShape: [1, 28, 28],
            runtime: "none (sample)")
        print(recordURL.path)
        print(files.json.path)
        print(files.csv.path)
    }
}
