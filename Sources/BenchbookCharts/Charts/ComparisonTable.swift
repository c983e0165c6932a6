import BenchbookBenchmark
import Foundation

/// A table figure that puts figures measured here beside figures quoted from elsewhere
/// (a paper, a vendor page, the course slides), with the quoted columns visibly marked:
/// tinted, italic, "quoted" in the header and a numbered source under the table.
public struct ComparisonTable: Chart {
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
    ///   - width: width in points.
    public init(title: String, rowHeader: String = "model", rows: [String], measuredHeader: String = "measured here",
                measured: [String?], quoted: [QuotedColumn], width: Double = 640) {
        self.title = title
        self.rowHeader = rowHeader
        self.rows = rows
        self.measuredHeader = measuredHeader
        self.measured = measured
        self.quoted = quoted
        self.width = width
    }

    /// Creates a table figure whose measured column is the p90 of each benchmark result.
    /// - Parameters:
    ///   - title: the title.
    ///   - table: the sweep; its rows become the table's rows.
    ///   - quoted: columns quoted from sources, one value per result.
    ///   - width: width in points.
    public init(title: String, measuring table: BenchmarkTable, quoted: [QuotedColumn], width: Double = 640) {
        let rows = table.results.map { "\($0.name) · \($0.threads) thread\($0.threads == 1 ? "" : "s")" }
        self.init(title: title, rows: rows, measuredHeader: "p90, measured here",
                  measured: table.results.map { DurationFormat.string($0.statistics.p90) }, quoted: quoted, width: width)
    }

    private let rowHeight = 28.0
    private let headerHeight = 46.0
    private var footnoteHeight: Double { 20 + 16 * Double(quoted.count) }

    /// Height follows from the row and source count.
    public var size: ChartSize {
        ChartSize(width: width, height: 62 + headerHeight + rowHeight * Double(rows.count) + 14 + footnoteHeight)
    }

    /// The table as text, quoted columns marked.
    public var textSummary: String {
        let header = [rowHeader, measuredHeader] + quoted.enumerated().map { "\($1.header) (quoted [\($0 + 1)])" }
        var lines = [title, header.joined(separator: " | ")]
        for (index, row) in rows.enumerated() {
            let cells = [row, measured[safe: index] ?? nil] + quoted.map { $0.values[safe: index] ?? nil }
            lines.append(cells.map { $0 ?? "—" }.joined(separator: " | "))
        }
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
        let body = ChartFrame.draw(on: canvas, title: title,
                                   subtitle: "Tinted italic columns are quoted from the sources below, not measured on this machine.")
        let size = 12.0
        let headers = [rowHeader, measuredHeader] + quoted.enumerated().map { "\($1.header) [\($0 + 1)]" }
        let columnCount = headers.count
        // Column widths: the label column takes what it needs (up to 40 %), the rest share.
        let labelWidth = min(max((rows + [rowHeader]).map { canvas.textWidth($0, size: size) }.max() ?? 0, 80) + 20, body.width * 0.4)
        let otherWidth = (body.width - labelWidth) / Double(max(columnCount - 1, 1))
        func columnX(_ column: Int) -> Double { column == 0 ? body.minX : body.minX + labelWidth + otherWidth * Double(column - 1) }
        func columnWidth(_ column: Int) -> Double { column == 0 ? labelWidth : otherWidth }

        // Quoted column backgrounds and a "quoted" tag over each.
        let tableHeight = headerHeight + rowHeight * Double(rows.count)
        for column in 2..<max(columnCount, 2) where column < columnCount {
            canvas.fill(ChartRect(x: columnX(column), y: body.minY, width: columnWidth(column), height: tableHeight), .quotedBackground)
        }
        // Header row: up to two lines per header, "quoted" under the quoted ones.
        for (column, header) in headers.enumerated() {
            let x = columnX(column), w = columnWidth(column)
            let isQuoted = column >= 2
            let lines = canvas.wrapped(header, size: size, maximumWidth: w - 12, lines: 2, weight: .bold)
            for (number, line) in lines.enumerated() {
                canvas.text(line, at: ChartPoint(x: column == 0 ? x + 8 : x + w - 8, y: body.minY + 11 + 14 * Double(number)),
                            size: size, color: isQuoted ? .secondaryText : .text, weight: .bold,
                            horizontal: column == 0 ? .leading : .trailing, vertical: .middle)
            }
            if isQuoted {
                canvas.text("quoted", at: ChartPoint(x: x + w - 8, y: body.minY + headerHeight - 8), size: 9.5,
                            color: .secondaryText, italic: true, horizontal: .trailing, vertical: .middle)
            }
        }
        canvas.line(from: ChartPoint(x: body.minX, y: body.minY + headerHeight), to: ChartPoint(x: body.maxX, y: body.minY + headerHeight),
                    .text, lineWidth: 1.2)
        // Body rows.
        let rowLabels = canvas.fittingDistinct(rows, size: size, maximumWidth: labelWidth - 12)
        for (row, _) in rows.enumerated() {
            let top = body.minY + headerHeight + rowHeight * Double(row)
            let middle = top + rowHeight / 2
            if row > 0 {
                canvas.line(from: ChartPoint(x: body.minX, y: top), to: ChartPoint(x: body.maxX, y: top), .grid)
            }
            canvas.text(rowLabels[row], at: ChartPoint(x: body.minX + 8, y: middle),
                        size: size, vertical: .middle)
            canvas.text(measured[row] ?? "—", at: ChartPoint(x: columnX(1) + otherWidth - 8, y: middle), size: size,
                        weight: .bold, horizontal: .trailing, vertical: .middle)
            for (index, column) in quoted.enumerated() {
                let x = columnX(index + 2)
                canvas.text(canvas.fitting(column.values[row] ?? "—", size: size, maximumWidth: otherWidth - 12),
                            at: ChartPoint(x: x + otherWidth - 8, y: middle), size: size, color: .secondaryText,
                            italic: true, horizontal: .trailing, vertical: .middle)
            }
        }
        let bottom = body.minY + tableHeight
        canvas.line(from: ChartPoint(x: body.minX, y: bottom), to: ChartPoint(x: body.maxX, y: bottom), .text, lineWidth: 1.2)
        // Sources.
        var y = bottom + 16
        canvas.text("Sources of quoted figures:", at: ChartPoint(x: body.minX, y: y), size: 10.5, color: .secondaryText,
                    weight: .bold, vertical: .top)
        for (index, column) in quoted.enumerated() {
            y += 16
            let text = canvas.fitting("[\(index + 1)] \(column.source)", size: 10.5, maximumWidth: body.width)
            canvas.text(text, at: ChartPoint(x: body.minX, y: y), size: 10.5, color: .secondaryText, vertical: .top)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
