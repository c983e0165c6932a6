import BenchbookBenchmark
import Foundation

/// A table figure that puts figures measured here beside figures quoted from elsewhere
/// (a paper, a vendor page, the course slides), with the quoted columns visibly marked:
/// tinted, italic, "quoted" in the header and a numbered source under the table.
///
/// **Every mark is explained under the table.** A cell or row label that carries a symbol
/// gets a legend line for it: the symbols Benchbook writes itself are known (⚠ for a
/// contended run, ``CPUContention/mark``; ``noFigure``, —, for a cell without a figure), any
/// other is explained by the caller's ``marks``. Cells break into lines at spaces and after a
/// word's own separators, never inside a word: columns too narrow for a word get wider (and
/// the type smaller, down to 10 points; the chart wider than asked as a last resort) instead.
public struct ComparisonTable: Chart {
    /// A symbol the table's cells carry and what it means, printed under the table.
    public struct Mark: Sendable, Equatable {
        /// The symbol as it appears in cells, for example "⚠" or "*".
        public var symbol: String
        /// What it means, for example "measured on a busy machine".
        public var meaning: String

        /// Creates a legend entry.
        public init(symbol: String, meaning: String) {
            self.symbol = symbol
            self.meaning = meaning
        }
    }

    /// The marks the table knows without being told: ⚠, a contended run.
    public static let knownMarks = [Mark(symbol: CPUContention.mark, meaning: CPUContention.markMeaning)]
    /// What the table writes in a cell without a figure, explained when one has none.
    public static let noFigure = Mark(symbol: "—", meaning: "no figure for this row in this column.")

    /// A column of figures taken from a source, not measured here.
    public struct QuotedColumn: Sendable, Equatable {
        /// Column header, for example "Pixel 7, CPU".
        public var header: String
        /// Where the figures come from (citation or URL), printed as a footnote.
        public var source: String
        /// One cell per row; nil for no figure.
        public var values: [String?]

        /// Creates a quoted column.
        public init(header: String, source: String, values: [String?]) {
            self.header = header
            self.source = source
            self.values = values
        }
    }

    /// The title.
    public var title: String
    /// Header of the first column (what each row is).
    public var rowHeader: String
    /// Row labels.
    public var rows: [String]
    /// Header of the measured column.
    public var measuredHeader: String
    /// Measured figures, one per row; nil for none.
    public var measured: [String?]
    /// Quoted columns, after the measured one.
    public var quoted: [QuotedColumn]
    /// What the symbols in the cells mean (besides ``knownMarks``; an entry here replaces a
    /// known one with the same symbol). Only marks some cell carries are printed.
    public var marks: [Mark]
    /// Width in points.
    public var width: Double

    /// Creates a table figure.
    /// - Parameters:
    ///   - title: the title.
    ///   - rowHeader: header of the label column.
    ///   - rows: row labels.
    ///   - measuredHeader: header of our column.
    ///   - measured: our figures, already formatted (for example "12.3 ms").
    ///   - quoted: columns quoted from sources.
    ///   - marks: what symbols in the cells mean, beyond ``knownMarks``.
    ///   - width: width in points.
    public init(title: String, rowHeader: String = "model", rows: [String], measuredHeader: String = "measured here",
                measured: [String?], quoted: [QuotedColumn], marks: [Mark] = [], width: Double = 640) {
        self.title = title
        self.rowHeader = rowHeader
        self.rows = rows
        self.measuredHeader = measuredHeader
        self.measured = measured
        self.quoted = quoted
        self.marks = marks
        self.width = width
    }

    /// Creates a table figure whose measured column is the p90 of each benchmark result, with
    /// its 95 % interval; a contended result's row is marked ⚠ (and explained under the table).
    /// - Parameters:
    ///   - title: the title.
    ///   - table: the sweep; its rows become the table's rows.
    ///   - quoted: columns quoted from sources, one value per result.
    ///   - width: width in points.
    public init(title: String, measuring table: BenchmarkTable, quoted: [QuotedColumn], width: Double = 640) {
        let rows = table.results.map {
            "\($0.name) · \($0.threads) thread\($0.threads == 1 ? "" : "s")" + ($0.isContended ? " " + CPUContention.mark : "")
        }
        self.init(title: title, rows: rows, measuredHeader: "p90 (95 % interval), measured here",
                  measured: table.results.map { IntervalFormat.duration($0.p90Interval) }, quoted: quoted, width: width)
    }

    static let textSize = 12.0
    static let smallestTextSize = 10.0
    static let sourceSize = 10.5
    static let subtitle = "Tinted italic columns are quoted from the sources below, not measured on this machine."

    /// Height follows from the rows, their lines, the legend and the sources (the width is the
    /// one asked for unless the columns' longest words need more).
    public var size: ChartSize {
        guard let canvas = try? CairoCanvas(width: width, height: 10, scale: 1) else { return ChartSize(width: width, height: 400) }
        let layout = self.layout(on: canvas)
        let height = 2 * ChartStyle.margin + layout.headerTop + 6 + layout.tableHeight + 14 + layout.footnoteHeight
        return ChartSize(width: layout.width, height: height)
    }

    /// The table as text, quoted columns marked.
    public var textSummary: String {
        let header = [rowHeader, measuredHeader] + quoted.enumerated().map { "\($1.header) (quoted [\($0 + 1)])" }
        var lines = [title, header.joined(separator: " | ")]
        for (index, row) in rows.enumerated() {
            let cells = [row, measured[safe: index] ?? nil] + quoted.map { $0.values[safe: index] ?? nil }
            lines.append(cells.map { $0 ?? "—" }.joined(separator: " | "))
        }
        lines += legend.map { "\($0.symbol) \($0.meaning)" }
        lines += quoted.enumerated().map { "[\($0 + 1)] \($1.source)" }
        return lines.joined(separator: "\n")
    }

    /// Renders the table as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard !rows.isEmpty else { throw ChartError.invalidData("the table has no rows") }
        guard measured.count == rows.count else {
            throw ChartError.invalidData("\(rows.count) rows but \(measured.count) measured values")
        }
        if let bad = quoted.first(where: { $0.values.count != rows.count }) {
            throw ChartError.invalidData("the quoted column \"\(bad.header)\" has \(bad.values.count) values for \(rows.count) rows")
        }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    private func draw(on canvas: CairoCanvas) {
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: Self.subtitle)
        let layout = self.layout(on: canvas)
        let size = layout.textSize
        let columnCount = headers.count
        func columnX(_ column: Int) -> Double { body.minX + layout.columnWidths[..<column].reduce(0, +) }
        func anchor(_ column: Int) -> (Double, HorizontalAnchor) {
            column == 0 ? (columnX(column) + 8, .leading) : (columnX(column) + layout.columnWidths[column] - 8, .trailing)
        }

        // Quoted column backgrounds.
        for column in 2..<max(columnCount, 2) where column < columnCount {
            canvas.fill(ChartRect(x: columnX(column), y: body.minY, width: layout.columnWidths[column], height: layout.tableHeight),
                        .quotedBackground)
        }
        // Header row, "quoted" under the quoted headers.
        for (column, lines) in layout.headerLines.enumerated() {
            let (x, horizontal) = anchor(column)
            canvas.text(lines: lines, at: ChartPoint(x: x, y: body.minY + 6), size: size, color: column >= 2 ? .secondaryText : .text,
                        weight: .bold, horizontal: horizontal, vertical: .top)
            if column >= 2 {
                canvas.text("quoted", at: ChartPoint(x: x, y: body.minY + layout.headerHeight - 8), size: 9.5,
                            color: .secondaryText, italic: true, horizontal: .trailing, vertical: .middle)
            }
        }
        var top = body.minY + layout.headerHeight
        canvas.line(from: ChartPoint(x: body.minX, y: top), to: ChartPoint(x: body.maxX, y: top), .text, lineWidth: 1.2)
        // Body rows.
        for (row, cells) in layout.rowLines.enumerated() {
            let middle = top + layout.rowHeights[row] / 2
            if row > 0 { canvas.line(from: ChartPoint(x: body.minX, y: top), to: ChartPoint(x: body.maxX, y: top), .grid) }
            for (column, lines) in cells.enumerated() {
                let (x, horizontal) = anchor(column)
                canvas.text(lines: lines, at: ChartPoint(x: x, y: middle), size: size,
                            color: column >= 2 ? .secondaryText : .text, weight: Self.weight(column: column),
                            italic: column >= 2, horizontal: horizontal, vertical: .middle)
            }
            top += layout.rowHeights[row]
        }
        canvas.line(from: ChartPoint(x: body.minX, y: top), to: ChartPoint(x: body.maxX, y: top), .text, lineWidth: 1.2)
        // What the marks mean, then the sources, each on as many lines as it needs.
        var y = top + 16
        for lines in layout.legendLines {
            canvas.text(lines: lines, at: ChartPoint(x: body.minX, y: y), size: Self.sourceSize, color: .secondaryText, vertical: .top)
            y += CairoCanvas.blockHeight(lines: lines.count, size: Self.sourceSize) + 4
        }
        guard !layout.sourceLines.isEmpty else { return }
        if !layout.legendLines.isEmpty { y += 4 }
        canvas.text("Sources of quoted figures:", at: ChartPoint(x: body.minX, y: y), size: Self.sourceSize, color: .secondaryText,
                    weight: .bold, vertical: .top)
        y += 16
        for lines in layout.sourceLines {
            canvas.text(lines: lines, at: ChartPoint(x: body.minX, y: y), size: Self.sourceSize, color: .secondaryText, vertical: .top)
            y += CairoCanvas.blockHeight(lines: lines.count, size: Self.sourceSize) + 4
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
