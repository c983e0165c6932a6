import BenchbookRuntime

/// Results of a sweep (thread counts or variants), one row each.
///
/// Shows as an HTML table in a notebook and as aligned text elsewhere; ``csv`` gives the
/// same table for a spreadsheet or Python's `csv` module.
public struct BenchmarkTable: Sendable, Equatable, Codable {
    /// Table title (the benchmark's name).
    public var title: String
    /// The rows, in measurement order.
    public var results: [BenchmarkResult]

    /// Creates a table.
    /// - Parameters:
    ///   - title: the table's title.
    ///   - results: one result per row.
    public init(title: String, results: [BenchmarkResult]) {
        self.title = title
        self.results = results
    }

    /// Column headers of ``csv``; times in milliseconds with 6 decimals (nanosecond resolution).
    /// The interval columns bound the median and p90 with their 95 % bootstrap intervals;
    /// `free_cores` and `contended` come from ``CPUContention`` (empty when not measured).
    /// `cpu_ms` is the mean CPU time per run over all threads (``BenchmarkResult/cpuPerRun``)
    /// with its interval in `cpu_low_ms` and `cpu_high_ms`, `cores_busy` CPU over wall time;
    /// `energy_mj` the packages' mean millijoules per run with its interval
    /// (``EnergyPerRun``), and `energy_note` why it is empty when the machine has no counters.
    public static let columns = [
        "name", "threads", "runs", "init_ms", "first_run_ms", "min_ms", "median_ms", "mean_ms",
        "std_ms", "p90_ms", "p99_ms", "max_ms", "peak_rss_mib",
        "median_low_ms", "median_high_ms", "p90_low_ms", "p90_high_ms", "free_cores", "contended",
        "cpu_ms", "cpu_low_ms", "cpu_high_ms", "cores_busy", "energy_mj", "energy_low_mj", "energy_high_mj", "energy_note",
    ]

    /// The cells of one row as text, matching ``columns``.
    func cells(_ result: BenchmarkResult) -> [String] {
        let s = result.statistics
        func ms(_ value: Double) -> String { DurationFormat.fixed(value * 1e3, decimals: 6) }
        let median = result.medianInterval, p90 = result.p90Interval
        return [
            result.name, String(result.threads), String(result.runCount),
            result.initSeconds.map(ms) ?? "", ms(result.firstRunSeconds), ms(s.minimum), ms(s.median),
            ms(s.mean), ms(s.standardDeviation), ms(s.p90), ms(s.p99), ms(s.maximum),
            DurationFormat.fixed(Double(result.peakResidentBytes) / 1_048_576, decimals: 1),
            ms(median.lower), ms(median.upper), ms(p90.lower), ms(p90.upper),
            result.contention.map { DurationFormat.fixed($0.freeCores, decimals: 2) } ?? "",
            result.contention.map { $0.isContended ? "yes" : "no" } ?? "",
        ] + costCells(result)
    }

    /// The CPU-time and energy cells of a row (empty where not measured).
    private func costCells(_ result: BenchmarkResult) -> [String] {
        func ms(_ value: Double) -> String { DurationFormat.fixed(value * 1e3, decimals: 6) }
        let cpu = result.cpuPerRun, energy = result.energy?.packagePerRun
        return [
            cpu.map { ms($0.estimate) } ?? "", cpu.map { ms($0.lower) } ?? "", cpu.map { ms($0.upper) } ?? "",
            result.coresBusy.map { DurationFormat.fixed($0, decimals: 3) } ?? "",
            energy.map { ms($0.estimate) } ?? "", energy.map { ms($0.lower) } ?? "", energy.map { ms($0.upper) } ?? "",
            result.energy?.unavailableReason ?? "",
        ]
    }

    /// The table as CSV (RFC 4180: comma separated, fields with commas or quotes quoted,
    /// CRLF line ends), with a header row of ``columns``.
    public var csv: String {
        var lines = [Self.columns.map(Self.csvField).joined(separator: ",")]
        for result in results {
            lines.append(cells(result).map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}

extension BenchmarkTable: NotebookDisplayable, CustomStringConvertible {
    /// Aligned text and an HTML table.
    public var mimeBundle: MimeBundle {
        MimeBundle(plainText: description).adding("text/html", html)
    }

    private static let shownColumns = [
        ("name", 0), ("threads", 1), ("runs", 2), ("init", 3), ("first run", 4), ("min", 5),
        ("median (95 % interval)", 6), ("mean", 7), ("std", 8), ("p90 (95 % interval)", 9), ("p99", 10), ("max", 11),
        ("peak RSS", 12), ("cores free", 13), ("CPU per run (95 % interval)", 14), ("energy per run", 15),
    ]

    private func displayCells(_ result: BenchmarkResult) -> [String] {
        let s = result.statistics
        let f = DurationFormat.string
        return [
            result.name, String(result.threads), String(result.runCount), result.initSeconds.map(f) ?? "–",
            f(result.firstRunSeconds), f(s.minimum), IntervalFormat.duration(result.medianInterval), f(s.mean),
            f(s.standardDeviation), IntervalFormat.duration(result.p90Interval), f(s.p99), f(s.maximum),
            MemoryFormat.string(result.peakResidentBytes), ContentionFormat.cell(result.contention),
            result.cpuPerRun.map(IntervalFormat.duration) ?? "–",
            result.energy.map { $0.packagePerRun.map(EnergyFormat.interval) ?? "n/a" } ?? "–",
        ]
    }

    /// What the rows' intervals cover, each distinct wording once, in row order.
    var intervalCoverages: [String] {
        var seen: [String] = []
        for coverage in results.map(\.intervalCoverage) where !seen.contains(coverage) { seen.append(coverage) }
        return seen
    }

    /// Whether any row was contended (the HTML then explains the mark).
    var anyContended: Bool { results.contains { $0.isContended } }

    /// The table as aligned columns of text.
    public var description: String {
        let header = Self.shownColumns.map(\.0)
        let rows = results.map(displayCells)
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        return ([title, line(header)] + rows.map(line) + intervalCoverages.map { "Intervals: \($0)." }).joined(separator: "\n")
    }

    var html: String {
        var html = "<table><caption style=\"text-align:left\"><b>\(HTML.escape(title))</b> (p90 is the headline figure)</caption><tr>"
        for (header, _) in Self.shownColumns { html += "<th>\(HTML.escape(header))</th>" }
        html += "</tr>"
        for result in results {
            html += "<tr>"
            for (i, cell) in displayCells(result).enumerated() {
                let align = i == 0 ? "left" : "right"
                let weight = i == 9 ? "font-weight:bold;" : ""
                html += "<td style=\"text-align:\(align);\(weight)\">\(HTML.escape(cell))</td>"
            }
            html += "</tr>"
        }
        html += "</table>"
        if anyContended { html += "<p><i>\(HTML.escape(ContentionFormat.footnote))</i></p>" }
        if let reason = results.compactMap({ $0.energy?.unavailableReason }).first {
            html += "<p><i>Energy: \(HTML.escape(reason)).</i></p>"
        }
        for coverage in intervalCoverages { html += "<p><i>Intervals: \(HTML.escape(coverage)).</i></p>" }
        if results.contains(where: { $0.processSamples != nil }) {
            html += "<p><i>Measured across fresh processes, in turns: one new process per row in each round (A B, B A, …).</i></p>"
        } else if results.contains(where: { $0.interleavedWith != nil }) {
            html += "<p><i>Measured in turns, one run of each row per round (A B, B A, …): drift hits every row alike.</i></p>"
        }
        return html
    }
}
