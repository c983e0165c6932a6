import Foundation

/// A matrix (a tensor channel, an attention map, a weight matrix) as coloured cells with a
/// colour bar. Values with both signs use a diverging map centred on zero.
public struct HeatMap: Chart {
    /// The values, row by row.
    public var values: [Double]
    /// Row count.
    public var rows: Int
    /// Column count.
    public var columns: Int
    /// The colour ramp; diverging when nil and values have both signs, sequential otherwise.
    public var colorMap: ColorMap?
    /// Whether to write each value in its cell (only drawn when cells are large enough).
    public var showsValues: Bool
    /// The title.
    public var title: String
    /// Label of the horizontal axis.
    public var columnLabel: String
    /// Label of the vertical axis.
    public var rowLabel: String
    /// Size in points.
    public var size: ChartSize

    /// Creates a heat map.
    /// - Parameters:
    ///   - values: `rows * columns` values (`Float` or `Double`), row by row (a tensor's contiguous data).
    ///   - rows: row count.
    ///   - columns: column count.
    ///   - colorMap: a ramp, or nil to choose from the values' signs.
    ///   - showsValues: write values in cells when they fit.
    ///   - title: the title.
    ///   - rowLabel: vertical axis label.
    ///   - columnLabel: horizontal axis label.
    ///   - size: size in points.
    public init<Values: Sequence>(
        values: Values, rows: Int, columns: Int, colorMap: ColorMap? = nil, showsValues: Bool = true,
        title: String = "Heat map", rowLabel: String = "row", columnLabel: String = "column",
        size: ChartSize = ChartSize(width: 520, height: 440)
    ) where Values.Element: BinaryFloatingPoint {
        self.values = values.map { Double($0) }
        self.rows = rows
        self.columns = columns
        self.colorMap = colorMap
        self.showsValues = showsValues
        self.title = title
        self.rowLabel = rowLabel
        self.columnLabel = columnLabel
        self.size = size
    }

    private var finite: [Double] { values.filter(\.isFinite) }
    private var low: Double { finite.min() ?? 0 }
    private var high: Double { finite.max() ?? 0 }
    private var resolvedMap: ColorMap { colorMap ?? (low < 0 && high > 0 ? .diverging : .sequential) }

    /// Shape and value range.
    public var textSummary: String {
        "\(title): \(rows) × \(columns), values \(NumberText.significant(low)) to \(NumberText.significant(high))"
    }

    /// Renders the heat map as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard rows > 0, columns > 0, values.count == rows * columns else {
            throw ChartError.invalidData("\(values.count) values for a \(rows) × \(columns) matrix")
        }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    /// Maps a value to 0...1 on the ramp (symmetric around zero for the diverging ramp).
    private func position(_ value: Double) -> Double {
        if resolvedMap == .diverging {
            let extent = max(abs(low), abs(high), 1e-12)
            return 0.5 + value / (2 * extent)
        }
        return high > low ? (value - low) / (high - low) : 0.5
    }

    private func draw(on canvas: CairoCanvas) {
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: "\(rows) × \(columns)")
        let barWidth = 14.0, barGap = 12.0
        let (lowEnd, highEnd) = resolvedMap == .diverging
            ? (-max(abs(low), abs(high)), max(abs(low), abs(high))) : (low, high)
        let barLabels = [highEnd, (lowEnd + highEnd) / 2, lowEnd].map(NumberText.significant)
        let barLabelWidth = barLabels.map { canvas.textWidth($0, size: ChartStyle.tickSize) }.max() ?? 0
        let area = body.inset(top: 0, left: 44, bottom: 40, right: barWidth + barGap + barLabelWidth + 8)
        let cell = min(area.width / Double(columns), area.height / Double(rows))
        let plot = ChartRect(x: area.minX, y: area.minY, width: cell * Double(columns), height: cell * Double(rows))
        let magnitude = finite.map(abs).max() ?? 0
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2
        let valueSize = min(11, cell * 0.34)
        func valueText(_ value: Double) -> String { NumberText.fixed(value, decimals: decimals) }
        let widestValue = values.map { canvas.textWidth(valueText($0), size: valueSize) }.max() ?? 0
        let annotate = showsValues && rows * columns <= 400 && widestValue <= cell - 5 && valueSize >= 7

        for row in 0..<rows {
            for column in 0..<columns {
                let value = values[row * columns + column]
                let color = value.isFinite ? resolvedMap.color(at: position(value)) : ChartColor(hex: 0xBBBBBB)
                let rect = ChartRect(x: plot.minX + Double(column) * cell, y: plot.minY + Double(row) * cell,
                                     width: cell + 0.4, height: cell + 0.4)
                canvas.fill(rect, color)
                if annotate {
                    canvas.text(valueText(value), at: ChartPoint(x: rect.x + cell / 2, y: rect.y + cell / 2),
                                size: valueSize, color: color.contrastingText, horizontal: .center, vertical: .middle)
                }
            }
        }
        canvas.stroke(plot, .axis, lineWidth: 0.8)
        // Index ticks: every row/column when few, otherwise about 6.
        func every(_ count: Int) -> Int { count <= 12 ? 1 : max(1, Int((Double(count) / 6).rounded(.up))) }
        for column in stride(from: 0, to: columns, by: every(columns)) {
            canvas.text(String(column), at: ChartPoint(x: plot.minX + (Double(column) + 0.5) * cell, y: plot.maxY + 5),
                        size: ChartStyle.tickSize, color: .secondaryText, horizontal: .center, vertical: .top)
        }
        for row in stride(from: 0, to: rows, by: every(rows)) {
            canvas.text(String(row), at: ChartPoint(x: plot.minX - 6, y: plot.minY + (Double(row) + 0.5) * cell),
                        size: ChartStyle.tickSize, color: .secondaryText, horizontal: .trailing, vertical: .middle)
        }
        canvas.text(columnLabel, at: ChartPoint(x: plot.midX, y: plot.maxY + 24), size: ChartStyle.axisTitleSize,
                    horizontal: .center, vertical: .top)
        canvas.text(rowLabel, at: ChartPoint(x: plot.minX - 32, y: plot.midY), size: ChartStyle.axisTitleSize,
                    horizontal: .center, vertical: .middle, rotation: -Double.pi / 2)

        // Colour bar.
        let bar = ChartRect(x: plot.maxX + barGap, y: plot.minY, width: barWidth, height: plot.height)
        let steps = 64
        for step in 0..<steps {
            let t = 1 - (Double(step) + 0.5) / Double(steps)
            canvas.fill(ChartRect(x: bar.x, y: bar.y + bar.height * Double(step) / Double(steps),
                                  width: bar.width, height: bar.height / Double(steps) + 0.5), resolvedMap.color(at: t))
        }
        canvas.stroke(bar, .axis, lineWidth: 0.8)
        for (index, label) in barLabels.enumerated() {
            canvas.text(label, at: ChartPoint(x: bar.maxX + 5, y: bar.minY + bar.height * Double(index) / 2),
                        size: ChartStyle.tickSize, color: .secondaryText, vertical: .middle)
        }
    }
}
