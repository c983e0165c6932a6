import BenchbookRuntime
import Foundation

/// Earlier benchmark records read back from `results/`, to compare a new run with them, the
/// way `pytest-benchmark compare` compares saved runs, but in the notebook: one row per
/// variant with the ratio of medians, its interval, the verdict and the machine of each run.
///
/// ```swift
/// import Foundation
/// let table = try Benchmark("sum", options: .quick).sweep([BenchmarkVariant("1k") { _ = (0..<1000).reduce(0, +) }])
/// let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-example")
/// try table.write(to: folder, baseName: "sum-sweep")           // an earlier run
/// let history = try BenchmarkHistory(directory: folder, prefix: "sum-sweep")
/// history.compare(table)                                         // this run against it
/// ```
public struct BenchmarkHistory: Sendable {
    /// Every record found, oldest first.
    public var records: [BenchmarkRecord]
    /// The files they came from.
    public var files: [URL]

    /// Reads every record (``BenchmarkRecord``) and sweep (``BenchmarkSweepRecord``) JSON file
    /// whose name starts with `prefix`; other JSON files are skipped.
    ///
    /// Without a directory, two folders are read: where this run's records go
    /// (``BenchmarkRecord/defaultDirectory``, `results/latest/` under `make run`) and the
    /// project's published `results/`, so a run on a fresh machine is set beside the
    /// published figures and the machine they came from.
    /// - Parameters:
    ///   - directory: where to look; nil for the two folders above.
    ///   - prefix: the start of the file names to read, for example "notebook-timing".
    /// - Throws: ``BenchmarkError/unreadableFile(path:reason:)`` when a folder that exists
    ///   cannot be listed.
    public init(directory: URL? = nil, prefix: String = "") throws {
        let folders = directory.map { [$0] } ?? Self.defaultFolders()
        var records: [BenchmarkRecord] = []
        var files: [URL] = []
        for folder in folders {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
                if !FileManager.default.fileExists(atPath: folder.path) { continue }
                throw BenchmarkError.unreadableFile(path: folder.path, reason: error.localizedDescription)
            }
            for name in names.sorted() where name.hasPrefix(prefix) && name.hasSuffix(".json") {
                let url = folder.appendingPathComponent(name)
                if let sweep = try? BenchmarkSweepRecord(contentsOf: url) {
                    records += sweep.records
                    files.append(url)
                } else if let record = try? BenchmarkRecord(contentsOf: url) {
                    records.append(record)
                    files.append(url)
                }
            }
        }
        self.records = records.sorted { $0.date < $1.date }
        self.files = files
    }

    /// Where this run's records go, and the published `results/` when that is another folder.
    static func defaultFolders() -> [URL] {
        let records = BenchmarkRecord.defaultDirectory.standardizedFileURL
        let published = BenchmarkRecord.resultsDirectory(
            from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)).standardizedFileURL
        return records.path == published.path ? [records] : [records, published]
    }

    /// The newest record of a variant (same name and thread count) made before `date`.
    public func latest(named name: String, threads: Int, before date: Date = Date()) -> BenchmarkRecord? {
        records.last { $0.result.name == name && $0.result.threads == threads && $0.date < date }
    }

    /// Compares each row of `table` with the newest earlier record of the same name and
    /// thread count. The runs were measured apart, so the verdict depends on how they relate
    /// (``RunRelation/between(current:earlier:spreads:)``): on the same processor model with a
    /// measured run-to-run spread, a difference must clear that spread; with none measured, or on
    /// different processor models, the verdict is undecided and says why.
    /// - Parameters:
    ///   - table: this run's results.
    ///   - machine: the machine this run is on.
    ///   - spreads: the measured run-to-run spreads; those published in `results/` by default.
    ///   - equivalenceBand: how close to 1 the whole interval must be for *equivalent*; the
    ///     measured spread when larger.
    /// - Returns: one row per result of `table`; rows without an earlier record say so.
    public func compare(_ table: BenchmarkTable, machine: MachineDescription = .current,
                        spreads: [RunSpread] = RunSpread.published(),
                        equivalenceBand: Double = VerdictRule.defaultEquivalenceBand) -> RunComparisonTable {
        let rows = table.results.map { result -> RunComparisonTable.Row in
            guard let earlier = latest(named: result.name, threads: result.threads), !earlier.result.samples.isEmpty,
                  !result.samples.isEmpty else {
                return RunComparisonTable.Row(current: result, earlier: nil, comparison: nil, machine: machine)
            }
            let relation = RunRelation.between(current: machine.cpuModel, earlier: earlier.machine.cpuModel, spreads: spreads)
            let comparison: BenchmarkComparison
            if let mine = result.processSamples, let theirs = earlier.result.processSamples, mine.count >= 2, theirs.count >= 2 {
                comparison = BenchmarkComparison(baselineName: "the earlier run", baselineProcesses: theirs,
                                                 candidateName: "this run", candidateProcesses: mine, inTurns: false,
                                                 equivalenceBand: equivalenceBand, relation: relation)
            } else {
                comparison = BenchmarkComparison(baselineName: "the earlier run", baseline: earlier.result.samples,
                                                 candidateName: "this run", candidate: result.samples,
                                                 equivalenceBand: equivalenceBand).judged(as: relation)
            }
            return RunComparisonTable.Row(current: result, earlier: earlier, comparison: comparison, machine: machine)
        }
        return RunComparisonTable(title: table.title, rows: rows)
    }
}

/// This run against earlier records, one row per variant (from ``BenchmarkHistory/compare(_:machine:)``).
public struct RunComparisonTable: Sendable {
    /// One variant.
    public struct Row: Sendable {
        /// This run's result.
        public var current: BenchmarkResult
        /// The earlier record, or nil when there is none.
        public var earlier: BenchmarkRecord?
        /// This run against the earlier one (measured apart, so the drift band applies).
        public var comparison: BenchmarkComparison?
        /// The machine this run is on.
        public var machine: MachineDescription

        /// The verdict as a phrase: "1.08× slower than the earlier run (95 % interval 1.06–1.12×;
        /// measured apart, clear of the ±5 % drift band)".
        public var phrase: String {
            comparison?.phrase(than: "the earlier run") ?? "no earlier record of this variant"
        }
    }

    /// The benchmark's title.
    public var title: String
    /// The rows, in the table's order.
    public var rows: [Row]
}

extension RunComparisonTable: NotebookDisplayable, CustomStringConvertible {
    /// Text and an HTML table.
    public var mimeBundle: MimeBundle { MimeBundle(plainText: description).adding("text/html", html) }

    /// One line per variant.
    public var description: String {
        ([title + ": this run against the earlier records"] + rows.map { row in
            "\(row.current.label): \(row.phrase); this run on \(Self.machineText(row.machine))"
                + (row.earlier.map { ", earlier run \(Self.dateText($0.date)) on \(Self.machineText($0.machine))" } ?? "")
        }).joined(separator: "\n")
    }

    var html: String {
        var html = "<table><caption style=\"text-align:left\"><b>\(HTML.escape(title))</b>: this run against the newest earlier record "
            + "(medians with 95 % intervals; the runs were measured apart, so a difference counts only when its "
            + "interval clears the run-to-run spread measured on this processor (results/latency-spread.json), and "
            + "they are <i>equivalent</i> only when it lies inside it; with no spread measured, or on another "
            + "processor, <i>undecided</i>)</caption>"
            + "<tr><th style=\"text-align:left\">variant</th><th>this run</th><th>earlier run</th><th>this ÷ earlier</th>"
            + "<th style=\"text-align:left\">verdict</th><th style=\"text-align:left\">machines (this / earlier)</th></tr>"
        for row in rows {
            let earlier = row.earlier.map { "\(IntervalFormat.duration($0.result.medianInterval)), \(Self.dateText($0.date))" } ?? "–"
            let ratio = row.comparison.map { IntervalFormat.ratio($0.medianRatioInterval) } ?? "–"
            let machines = row.earlier.map { $0.machine == row.machine ? "same: \(Self.machineText(row.machine))"
                : "\(Self.machineText(row.machine)) / \(Self.machineText($0.machine))" } ?? Self.machineText(row.machine)
            let cells = [row.current.label, IntervalFormat.duration(row.current.medianInterval), earlier, ratio, row.phrase, machines]
            html += "<tr>" + cells.enumerated().map { index, cell in
                "<td style=\"text-align:\([0, 4, 5].contains(index) ? "left" : "right")\">\(HTML.escape(cell))</td>"
            }.joined() + "</tr>"
        }
        return html + "</table>"
    }

    static func machineText(_ machine: MachineDescription) -> String {
        "\(machine.cpuModel), \(machine.coreCount) cores"
    }

    static func dateText(_ date: Date) -> String { RecordFileName.utc(date, "yyyy-MM-dd HH:mm 'UTC'") }
}
