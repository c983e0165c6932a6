/// Where a comparison table's columns, cells, legend and sources go.
extension ComparisonTable {
    /// Where everything goes: column widths, and every cell's lines (nothing is cut; rows and
    /// the footnote grow instead).
    struct Layout {
        var textSize: Double
        var columnWidths: [Double]
        var headerLines: [[String]]
        var headerHeight: Double
        var rowLines: [[[String]]]   // per row, per column
        var rowHeights: [Double]
        var legendLines: [[String]]
        var sourceLines: [[String]]
        var headerTop: Double        // the title block's height
        /// The chart's width: the one asked for, wider when the columns' longest words need more.
        var width: Double

        var tableHeight: Double { headerHeight + rowHeights.reduce(0, +) }
        var footnoteHeight: Double {
            let block = { (lines: [[String]]) in
                lines.reduce(0) { $0 + CairoCanvas.blockHeight(lines: $1.count, size: ComparisonTable.sourceSize) + 4 }
            }
            return 4 + block(legendLines) + (legendLines.isEmpty ? 0 : 4) + (sourceLines.isEmpty ? 0 : 16 + block(sourceLines))
        }
    }

    var headers: [String] { [rowHeader, measuredHeader] + quoted.enumerated().map { "\($1.header) [\($0 + 1)]" } }

    /// The text of every body cell, row by row, ``noFigure``'s symbol where there is no figure.
    var cellTexts: [[String]] {
        let none = Self.noFigure.symbol
        return rows.enumerated().map { index, row in
            [row, measured[safe: index].flatMap { $0 } ?? none] + quoted.map { ($0.values[safe: index] ?? nil) ?? none }
        }
    }

    /// The marks the cells carry, with their meaning: the caller's, then the known ones the
    /// caller did not redefine, then "—" when a cell has no figure.
    var legend: [Mark] {
        let texts = cellTexts.flatMap { $0 }
        let known = Self.knownMarks.filter { mark in !marks.contains { $0.symbol == mark.symbol } }
        let carried = (marks + known).filter { mark in texts.contains { $0.contains(mark.symbol) } }
        let empty = measured.contains { $0 == nil } || quoted.contains { $0.values.contains { $0 == nil } }
        return carried + (empty ? [Self.noFigure] : [])
    }

    static func weight(column: Int) -> FontWeight { column == 1 ? .bold : .regular }

    /// Column widths at type `size`: the label column takes what its rows need, up to 40 %,
    /// the others share the rest; no column is narrower than its widest word (a column that
    /// needs more takes it from the others).
    func columnWidths(on canvas: CairoCanvas, size: Double) -> [Double] {
        let bodyWidth = width - 2 * ChartStyle.margin
        let columns = headers.count
        let texts = [headers] + cellTexts
        func widestPiece(_ column: Int) -> Double {
            texts.enumerated().map { index, row -> Double in
                let weight: FontWeight = index == 0 ? .bold : Self.weight(column: column)
                let words = CairoCanvas.unbreakable(row[column].split(separator: " ").map(String.init))
                return words.flatMap { CairoCanvas.pieces(of: $0) }.map { canvas.textWidth($0, size: size, weight: weight) }.max() ?? 0
            }.max() ?? 0
        }
        let minimum = (0..<columns).map { widestPiece($0) + 14 }
        let natural = max((rows + [rowHeader]).map { canvas.textWidth($0, size: size) }.max() ?? 0, 80) + 20
        var widths = [max(min(natural, bodyWidth * 0.4), minimum[0])]
        // The others share what is left; a column whose widest word needs more gets that.
        var open = Array(1..<max(columns, 1))
        var fixed: [Int: Double] = [:]
        while true {
            let left = bodyWidth - widths[0] - fixed.values.reduce(0, +)
            let share = left / Double(max(open.count, 1))
            guard let needy = open.first(where: { minimum[$0] > share }) else {
                widths += (1..<columns).map { fixed[$0] ?? share }
                return widths
            }
            fixed[needy] = minimum[needy]
            open.removeAll { $0 == needy }
        }
    }

    /// The layout at the largest type size (12 down to 10 points) at which every cell's lines
    /// fit their column; at 10 points, the columns as wide as their longest words need, the
    /// chart wider than asked if it must.
    func layout(on canvas: CairoCanvas) -> Layout {
        let bodyWidth = width - 2 * ChartStyle.margin
        var size = Self.textSize
        while true {
            let widths = columnWidths(on: canvas, size: size)
            let headerLines = headers.enumerated().map { canvas.lines($1, size: size, maximumWidth: widths[$0] - 14, weight: .bold) }
            var fits = headerLines.enumerated().allSatisfy { canvas.fits([$1], size: size, maximumWidth: widths[$0] - 14, weight: .bold) }
            var rowLines: [[[String]]] = []
            var rowHeights: [Double] = []
            for cells in cellTexts {
                let lines = cells.enumerated().map { column, text in
                    canvas.lines(text, size: size, maximumWidth: widths[column] - 14, weight: Self.weight(column: column))
                }
                fits = fits && lines.enumerated().allSatisfy { column, cell in
                    canvas.fits([cell], size: size, maximumWidth: widths[column] - 14, weight: Self.weight(column: column))
                }
                rowLines.append(lines)
                rowHeights.append(max(28, CairoCanvas.blockHeight(lines: lines.map(\.count).max() ?? 1, size: size) + 14))
            }
            if fits || size - 0.5 < Self.smallestTextSize {
                let headerHeight = CairoCanvas.blockHeight(lines: headerLines.map(\.count).max() ?? 1, size: size) + 30
                let legendLines = legend.map { canvas.lines("\($0.symbol) \($0.meaning)", size: Self.sourceSize, maximumWidth: bodyWidth) }
                let sourceLines = quoted.enumerated().map {
                    canvas.lines("[\($0 + 1)] \($1.source)", size: Self.sourceSize, maximumWidth: bodyWidth)
                }
                let chartWidth = max(width, widths.reduce(0, +) + 2 * ChartStyle.margin)
                let headerTop = ChartFrame.headerHeight(on: canvas, title: title, subtitle: Self.subtitle, width: chartWidth)
                return Layout(textSize: size, columnWidths: widths, headerLines: headerLines, headerHeight: headerHeight,
                              rowLines: rowLines, rowHeights: rowHeights, legendLines: legendLines, sourceLines: sourceLines,
                              headerTop: headerTop, width: chartWidth)
            }
            size -= 0.5
        }
    }
}
