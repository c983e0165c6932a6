import BenchbookBenchmark
import Foundation
import Testing
@testable import BenchbookCharts

/// Every symbol a comparison table's cells carry is explained under it.
@Suite struct ComparisonTableTests {
    static func table(rows: [String], measured: [String?], marks: [ComparisonTable.Mark] = []) -> ComparisonTable {
        ComparisonTable(title: "Latency", rows: rows, measured: measured,
                        quoted: [.init(header: "Phone", source: "Course slides", values: rows.map { _ in "18 ms" })], marks: marks)
    }

    /// 06's table marked contended rows ⚠ and said nowhere what the mark meant.
    @Test func aContendedRowsMarkIsExplainedWithoutBeingAsked() throws {
        let table = Self.table(rows: ["int8 · 1 thread ⚠", "fp32 · 1 thread"], measured: ["6.51 ms", "13.4 ms"])
        #expect(table.legend == [ComparisonTable.Mark(symbol: "⚠", meaning: CPUContention.markMeaning)])
        let drawn = try TextRecorder.texts(of: table)
        #expect(drawn.contains { $0.hasPrefix("⚠ contended: other processes") }, "\(drawn)")
        #expect(table.textSummary.contains("⚠ contended:"))
    }

    @Test func theCallersMarksAreExplainedAndOnlyMarksInUse() throws {
        let marks = [ComparisonTable.Mark(symbol: "*", meaning: "measured with the profiler on."),
                     ComparisonTable.Mark(symbol: "†", meaning: "not in this table."),
                     ComparisonTable.Mark(symbol: "⚠", meaning: "busy machine.")]
        let table = Self.table(rows: ["int8 *", "fp32 ⚠"], measured: ["6.51 ms", nil], marks: marks)
        // The caller's meaning of ⚠ replaces the known one; † is in no cell; a missing figure is "—".
        #expect(table.legend.map(\.symbol) == ["*", "⚠", "—"])
        #expect(table.legend[1].meaning == "busy machine.")
        let drawn = try TextRecorder.texts(of: table).joined(separator: "\n")
        #expect(drawn.contains("* measured with the profiler on.") && drawn.contains("— no figure for this row in this column."))
        #expect(!drawn.contains("†"))
        // Nothing marked, nothing missing: no legend.
        #expect(Self.table(rows: ["int8"], measured: ["6.51 ms"]).legend.isEmpty)
    }

    @Test func aBenchmarkTablesContendedResultsAreMarked() throws {
        var generator = ChartSamples.Generator(state: 3)
        var contended = BenchmarkResult(
            name: "EfficientNet-Lite0 int8", options: BenchmarkOptions(threads: 2), initSeconds: nil, firstRunSeconds: 0.02,
            warmupRuns: 1, warmupSeconds: 0.1, samples: generator.latencies(median: 0.007, count: 50), measuredSeconds: 1,
            stoppedAtTimeLimit: false, peakResidentBytes: 0)
        contended.contention = CPUContention(wallSeconds: 1, processCPUSeconds: 1, othersBusySeconds: 1.5, stealSeconds: 0,
                                             cores: 2, threads: 2)
        var quiet = contended
        quiet.contention = nil
        let table = ComparisonTable(title: "t", measuring: BenchmarkTable(title: "t", results: [contended, quiet]),
                                    quoted: [.init(header: "Phone", source: "slides", values: ["18 ms", "12 ms"])])
        #expect(table.rows == ["EfficientNet-Lite0 int8 · 2 threads ⚠", "EfficientNet-Lite0 int8 · 2 threads"])
        #expect(table.legend.map(\.symbol) == ["⚠"])
    }
}
