import Foundation

/// Values per category as horizontal bars with their numbers written at the end: accuracies,
/// counts, speed-ups, sizes. Not for class probabilities (``ProbabilityChart``) or run times
/// (``LatencyChart``).
///
/// ```swift
/// BarChart(values: [0.916, 0.912, 0.874], labels: ["float32", "int8", "int8, no calibration"],
///          title: "Test accuracy", format: .percent)
/// ```
/// Labels sit left of the bars in at most 40 % of the width, broken into as many lines as
/// they need (never cut; rows grow taller). When the largest value is 10 times the smallest
/// (``AxisScale/automatic``) the axis is logarithmic.
public struct BarChart: Chart {
    /// How the numbers are written.
    public enum ValueFormat: Sendable, Equatable {
        /// Fractions as percentages: 0.916 → "91.6 %".
        case percent
        /// Whole numbers: 1234 → "1234".
        case count
        /// A fixed number of decimals and a unit, for example `.number(decimals: 2, unit: "×")`.
        case number(decimals: Int, unit: String)

        func text(_ value: Double) -> String {
            switch self {
            case .percent: NumberText.fixed(value * 100, decimals: 1) + " %"
            case .count: NumberText.fixed(value, decimals: 0)
            case .number(let decimals, let unit): NumberText.fixed(value, decimals: decimals) + (unit.isEmpty ? "" : " " + unit)
            }
        }
    }

    /// One value per bar, top to bottom.
    public var values: [Double]
    /// One label per bar.
    public var labels: [String]
    /// The title.
    public var title: String
    /// What the values are, written under the axis (for example "share of photos correct").
    public var valueLabel: String?
    /// How the numbers are written.
    public var format: ValueFormat
    /// Linear from zero, logarithmic, or chosen from the spread.
    public var axis: AxisScale
    /// Indices of bars drawn in the highlight colour.
    public var highlighted: Set<Int>
    /// Width in points; the height follows from the bar count.
    public var width: Double

    /// Creates the chart.
    /// - Parameters:
    ///   - values: one value per bar (`Float`, `Double` or `Int` converted by the caller).
    ///   - labels: one label per bar.
    ///   - title: the title.
    ///   - valueLabel: what the values are, under the axis.
    ///   - format: how numbers are written (default: 3 significant figures).
    ///   - axis: the value axis.
    ///   - highlighted: bars to draw in the highlight colour.
    ///   - width: width in points.
    public init<Values: Sequence>(values: Values, labels: [String], title: String, valueLabel: String? = nil,
                                  format: ValueFormat = .number(decimals: 2, unit: ""), axis: AxisScale = .automatic,
                                  highlighted: Set<Int> = [], width: Double = 640) where Values.Element: BinaryFloatingPoint {
        self.values = values.map { Double($0) }
        self.labels = labels
        self.title = title
        self.valueLabel = valueLabel
        self.format = format
        self.axis = axis
        self.highlighted = highlighted
        self.width = width
    }

    private static let labelSize = 12.0
    private static let minimumRowHeight = 26.0

    /// Labels take at most 40 % of the width, on as many lines as they need.
    private var labelRoom: Double { (width - 2 * ChartStyle.margin) * 0.4 }

    /// The bar labels as they are drawn: their lines, type size and column width.
    func rowLabels(on canvas: CairoCanvas) -> RowLabels {
        RowLabels(labels, on: canvas, size: Self.labelSize, maximumWidth: labelRoom, minimumRowHeight: Self.minimumRowHeight)
    }

    private var rowHeight: Double {
        (try? CairoCanvas(width: 100, height: 10, scale: 1)).map { rowLabels(on: $0).rowHeight } ?? Self.minimumRowHeight
    }

    private var subtitle: String? {
        resolvedAxis == .logarithmic ? "log axis: the largest value is 10× the smallest or more" : nil
    }

    /// Height follows from the bar count, the label lines and the title's lines.
    public var size: ChartSize {
        ChartSize(width: width, height: 86 + rowHeight * Double(max(values.count, 1)) + 20
            + ChartFrame.extraHeaderHeight(title: title, subtitle: subtitle, width: width))
    }

    /// One line per bar.
    public var textSummary: String {
        ([title] + zip(labels, values).map { "\($0): \(format.text($1))" }).joined(separator: "\n")
    }

    /// The axis the chart is drawn with for its data (`.linear` or `.logarithmic`).
    public var resolvedAxis: AxisScale { axis.resolved(for: values) }

    /// Renders the chart as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard !values.isEmpty else { throw ChartError.invalidData("there are no values") }
        guard labels.count == values.count else {
            throw ChartError.invalidData("\(values.count) values but \(labels.count) labels")
        }
        guard values.allSatisfy(\.isFinite) else { throw ChartError.invalidData("a value is not finite") }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    private func draw(on canvas: CairoCanvas) {
        let logarithmic = resolvedAxis == .logarithmic
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle)
        let labelSize = Self.labelSize
        let names = rowLabels(on: canvas)
        let labelWidth = names.width + 10
        let numberWidth = (values.map { canvas.textWidth(format.text($0), size: labelSize, weight: .bold) }.max() ?? 0) + 10
        let plot = body.inset(top: 0, left: labelWidth, bottom: valueLabel == nil ? 24 : 42, right: numberWidth)
        let low = min(values.min() ?? 0, 0), high = max(values.max() ?? 1, 0)
        let ticks: [Double]
        let mapping: ValueMapping
        if logarithmic {
            let (domain, logTicks) = LogScale.ticks(values.min()! * 0.9, values.max()! * 1.05)
            ticks = logTicks
            mapping = .logarithmic(LogScale(domain: domain, range: (plot.minX, plot.maxX)))
        } else {
            ticks = Ticks.nice(low, high == low ? low + 1 : high, count: 5)
            mapping = .linear(LinearScale(domain: (ticks.first ?? 0, ticks.last ?? 1), range: (plot.minX, plot.maxX)))
        }
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        let tickText = { (value: Double) -> String in
            switch format {
            case .percent: Ticks.label(value * 100, step: step * 100) + " %"
            default: logarithmic ? Ticks.label(value, step: value) : Ticks.label(value, step: step)
            }
        }
        ValueAxis.drawHorizontal(on: canvas, plot: plot, scale: { mapping($0) }, ticks: ticks, format: tickText, title: valueLabel)
        let row = plot.height / Double(values.count)
        let zero = mapping.baseline
        for (index, value) in values.enumerated() {
            let top = plot.minY + row * Double(index)
            let end = mapping(value)
            let bar = ChartRect(x: min(zero, end), y: top + row * 0.2, width: max(abs(end - zero), 1), height: row * 0.6)
            canvas.fill(bar, highlighted.contains(index) ? .highlight : .primary)
            canvas.text(lines: names.lines[index], at: ChartPoint(x: plot.minX - 8, y: bar.midY), size: names.size,
                        horizontal: .trailing, vertical: .middle)
            canvas.text(format.text(value), at: ChartPoint(x: max(zero, end) + 5, y: bar.midY), size: labelSize,
                        weight: .bold, vertical: .middle)
        }
    }
}
