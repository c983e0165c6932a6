@testable import BenchbookBenchmark
import BenchbookRuntime
import BenchbookSettings
import Foundation
import SystemSupport
import Testing

/// The worker protocol: the request and report as they cross the process boundary, the
/// worker's location, and what happens when a worker sends nothing, garbage or a failure.
/// The real worker (`benchbook-bench-worker`, built beside these tests) measures a real model
/// in fresh processes.
@Suite struct WorkerProcessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fashion = root.appendingPathComponent("notebooks/models/fashion_cnn.ptl").path
    static let options = BenchmarkOptions(warmupRuns: 1, minimumWarmupSeconds: 0, minimumRuns: 5, minimumSeconds: 0,
                                          maximumSeconds: 5, threads: 1)

    /// A shell script standing in for the worker, in a fresh temporary directory.
    static func script(_ body: String) throws -> BenchmarkWorker {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("worker.sh").path
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return BenchmarkWorker(path: path)
    }

    static func result(_ samples: [Double]) -> BenchmarkResult {
        BenchmarkResult(name: "m", options: options, initSeconds: 0.1, firstRunSeconds: 0.01, warmupRuns: 1, warmupSeconds: 0.01,
                        samples: samples, measuredSeconds: 0.05, stoppedAtTimeLimit: false, peakResidentBytes: 1000)
    }

    @Test func requestsAndReportsSurviveTheirEncoding() throws {
        let variant = ModelVariant("fashion", model: "models/fashion_cnn.ptl", threads: 2, input: .constant(shape: [1, 1, 28, 28], value: 0.5))
        #expect(variant.modelPath.hasPrefix("/") && variant.modelPath.hasSuffix("/models/fashion_cnn.ptl"))
        let request = WorkerRequest(variant: variant, options: .standard)
        #expect(request.options.threads == 2 && !request.options.showsProgress)
        #expect(try WorkerRequest(decoding: try request.encoded()) == request)
        var old = request
        old.version = 0
        #expect(throws: BenchmarkError.self) { try WorkerRequest(decoding: try old.encoded()) }
        #expect(throws: BenchmarkError.self) { try WorkerRequest(decoding: "{") }
        let measured = WorkerReport.measured(Self.result([0.01, 0.011, 0.012]))
        #expect(try WorkerReport(decoding: try measured.encoded()) == measured)
        #expect(try WorkerReport(decoding: try WorkerReport.failed("no such file").encoded()) == .failed("no such file"))
    }

    @Test func theWorkerIsFoundThroughTheSettingOrBesideTheBuild() throws {
        let missing = "/nonexistent/benchbook-bench-worker"
        #expect(throws: BenchmarkError.workerMissing(searched: ["\(missing) (BENCHBOOK_BENCH_WORKER)"])) {
            try BenchmarkWorker.located(settings: LibrarySettings(environment: ["BENCHBOOK_BENCH_WORKER": missing]))
        }
        let error = BenchmarkError.workerMissing(searched: [missing]).description
        #expect(error.contains("make build") && error.contains("BENCHBOOK_BENCH_WORKER"))
        #expect(try BenchmarkWorker.located(settings: LibrarySettings(environment: ["BENCHBOOK_BENCH_WORKER": "/bin/true"])).path == "/bin/true")
    }

    @Test func theReportComesOnDescriptorThreeWhateverTheWorkerPrints() throws {
        let report = String(decoding: try WorkerReport.measured(Self.result([0.02, 0.021])).encoded(), as: UTF8.self)
        let worker = try Self.script("echo 'runtime chatter on stdout'; echo 'and on stderr' >&2\ncat >&3 <<'JSON'\n\(report)\nJSON")
        let result = try worker.measure(ModelVariant("m", model: "/x", input: .constant(shape: [1], value: 0)), options: Self.options)
        #expect(result.samples == [0.02, 0.021])
    }

    @Test func aWorkerWithoutAReportOrWithGarbageIsAClearError() throws {
        let variant = ModelVariant("m", model: "/x", input: .constant(shape: [1], value: 0))
        let silent = try Self.script("echo 'Segmentation fault in the runtime' >&2; exit 3")
        #expect { try silent.measure(variant, options: Self.options) } throws: { error in
            guard case .workerFailed(let name, let reason) = error as? BenchmarkError else { return false }
            return name == "m · 1 thread" && reason.contains("exit status 3") && reason.contains("Segmentation fault in the runtime")
        }
        let garbage = try Self.script("echo 'not json' >&3")
        #expect { try garbage.measure(variant, options: Self.options) } throws: { error in
            guard case .workerProtocol = error as? BenchmarkError else { return false }
            return true
        }
        let refusing = try Self.script("cat >&3 <<'JSON'\n\(String(decoding: try WorkerReport.failed("the model file does not exist").encoded(), as: UTF8.self))\nJSON")
        #expect(throws: BenchmarkError.workerFailed(variant: "m · 1 thread", reason: "the model file does not exist")) {
            try refusing.measure(variant, options: Self.options)
        }
    }

    @Test func fakeProcessesMergeIntoOneResultPerVariantInTurns() throws {
        // Each "process" reports its own level; the order of calls is recorded to check the turns.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("turns-\(getpid()).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let a = String(decoding: try WorkerReport.measured(Self.result([0.010, 0.011, 0.012])).encoded(), as: UTF8.self)
        let worker = try Self.script("""
            case "$1" in *'"name":"A"'*) echo A >> \(log);; *) echo B >> \(log);; esac
            cat >&3 <<'JSON'
            \(a)
            JSON
            """)
        let variants = [ModelVariant("A", model: "/a", input: .constant(shape: [1], value: 0)),
                        ModelVariant("B", model: "/b", input: .constant(shape: [1], value: 0))]
        let table = try Benchmark("turns", options: Self.options).acrossProcesses(variants, processes: 3, worker: worker)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "A\nB\nB\nA\nA\nB\n")
        #expect(table.results.count == 2)
        let merged = table.results[0]
        #expect(merged.processSamples?.count == 3 && merged.samples.count == 9 && merged.runCount == 9)
        #expect(merged.intervalCoverage == "3 processes × 3 runs; interval across processes")
        #expect(merged.interleavedWith == ["B · 1 thread"])
        #expect(table.results[1].compared(with: merged).processes == 3)
    }

    @Test func theRealWorkerMeasuresAModelInFreshProcesses() throws {
        let built = Self.root.appendingPathComponent(".build/debug/benchbook-bench-worker").path
        try #require(FileManager.default.isExecutableFile(atPath: built), "build the worker first: swift build --build-tests")
        let worker = BenchmarkWorker(path: built)
        let variant = ModelVariant("fashion_cnn.ptl", model: Self.fashion, input: .constant(shape: [1, 1, 28, 28], value: 0.5))
        let table = try Benchmark("fashion", options: Self.options).acrossProcesses([variant], processes: 2, worker: worker)
        let result = table.results[0]
        #expect(result.processSamples?.count == 2)
        #expect(result.processSamples?.allSatisfy { $0.count >= 5 && $0.allSatisfy { $0 > 0 } } == true)
        #expect(result.initSeconds ?? 0 > 0)
        let interval = result.medianInterval
        #expect(interval.lower <= interval.estimate && interval.estimate <= interval.upper)
        // A model that does not exist: the worker's own error, through the report.
        let missing = ModelVariant("missing", model: "/nonexistent/model.ptl", input: .constant(shape: [1], value: 0))
        #expect { try worker.measure(missing, options: Self.options) } throws: { error in
            guard case .workerFailed(_, let reason) = error as? BenchmarkError else { return false }
            return reason.contains("/nonexistent/model.ptl")
        }
    }
}
