@testable import BenchbookBenchmark
import Foundation
import Testing

extension SerialBenchmarkTests {
@Suite struct RecordTests {
    static let fast = BenchmarkOptions(
        warmupRuns: 1, minimumWarmupSeconds: 0, minimumRuns: 30, minimumSeconds: 0, showsProgress: false)

    @Test func recordIsWrittenReadBackAndCompared() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("model.bin")
        try Data("abc".utf8).write(to: model)

        let fast = try Benchmark("sleep 100us", options: Self.fast).run { usleep(100) }
        let slow = try Benchmark("sleep 2ms", options: Self.fast).run { usleep(2000) }
        let record = try BenchmarkRecord(
            slow, modelFile: model.path, inputShape: [1, 3, 224, 224], runtime: "test runtime 1.0",
            libraryVersions: ["libtest": "2.0"], notes: "unit test")
        // SHA-256("abc") from FIPS 180-2.
        #expect(record.modelSHA256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(record.machine.coreCount >= 1)
        #expect(!record.machine.cpuModel.isEmpty)
        #expect(record.machine.operatingSystem.contains("kernel"))

        let url = try record.write(to: directory)
        #expect(url.lastPathComponent.hasPrefix("sleep_2ms-1t-"))
        let read = try BenchmarkRecord(contentsOf: url)
        #expect(read.result.samples == slow.samples)
        #expect(read.inputShape == [1, 3, 224, 224])
        #expect(read.runtime == "test runtime 1.0")
        #expect(read.libraryVersions == ["libtest": "2.0"])
        #expect(read.machine == record.machine)
        #expect(abs(read.date.timeIntervalSince(record.date)) < 1)

        let baseline = try BenchmarkRecord(fast)
        let comparison = try read.compared(with: baseline)
        #expect(comparison.medianRatio > 5)
        #expect(comparison.verdict == .slower)
        #expect(comparison.mimeBundle.data["text/plain"]?.contains("slower") == true)

        let itself = try read.compared(with: read)
        #expect(itself.medianRatio == 1)
        #expect(!itself.isDifference)   // equivalent or undecided, as its spread allows; never a difference
    }

    @Test func sweepWritesJSONAndCSV() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let table = try Benchmark("a, \"b\"", options: Self.fast).sweep(
            threads: [1, 2], setUp: { $0 }, measure: { _ in })
        let files = try table.write(to: directory, baseName: "sweep", inputShape: [1, 28, 28])
        let csv = try String(contentsOf: files.csv, encoding: .utf8)
        let lines = csv.split(separator: "\r\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("\"a, \"\"b\"\"\",1,30,"))
        let sweep = try BenchmarkSweepRecord(contentsOf: files.json)
        #expect(sweep.records.count == 2)
        #expect(sweep.table.results.map(\.threads) == [1, 2])
        #expect(sweep.records[1].result.samples == table.results[1].samples)
    }

    @Test func errorsSayWhatToDo() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/record.json")
        let error = #expect(throws: BenchmarkError.self) { try BenchmarkRecord(contentsOf: missing) }
        #expect(error?.description.contains("check the path") == true)

        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junk = directory.appendingPathComponent("junk.json")
        try Data("{\"x\": 1}".utf8).write(to: junk)
        let malformed = #expect(throws: BenchmarkError.self) { try BenchmarkRecord(contentsOf: junk) }
        #expect(malformed?.description.contains("not a Benchbook benchmark record") == true)

        let result = try Benchmark(options: Self.fast).run {}
        #expect(throws: BenchmarkError.self) {
            try BenchmarkRecord(result, modelFile: "/nonexistent/model.pt")
        }
    }
}
}

extension SerialBenchmarkTests.RecordTests {
    @Test func defaultDirectoryFindsResultsAbove() throws {
        let root = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let notebooks = root.appendingPathComponent("notebooks")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("results"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: notebooks, withIntermediateDirectories: true)
        let found = BenchmarkRecord.resultsDirectory(from: notebooks)
        #expect(found.path == root.appendingPathComponent("results").path)
        let elsewhere = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        #expect(BenchmarkRecord.resultsDirectory(from: elsewhere).path == elsewhere.appendingPathComponent("results").path)
        // Records of an interactive run go to the ignored latest/, never over the published ones.
        #expect(BenchmarkRecord.directory(environment: [:], current: notebooks).path
                == root.appendingPathComponent("results/latest").path)
        #expect(BenchmarkRecord.directory(environment: ["BENCHBOOK_RESULTS_DIR": "/tmp/r"], current: notebooks).path == "/tmp/r")
    }

    @Test func runAndRecordWritesTheFile() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = try Benchmark("cell", options: Self.fast).runAndRecord(to: directory, inputShape: [3]) { usleep(50) }
        let read = try BenchmarkRecord(contentsOf: recorded.file)
        #expect(read.result.samples == recorded.record.result.samples)
        #expect(read.inputShape == [3])
        #expect(recorded.description.contains("recorded in \(recorded.file.path)"))
        let html = try #require(recorded.record.mimeBundle.data["text/html"])
        #expect(html.contains("machine") && html.contains("input shape"))
    }
}
