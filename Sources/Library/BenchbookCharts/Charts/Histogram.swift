import Foundation

/// The distribution of many numbers: equal-width bins along a numeric axis, adjacent bars
/// whose heights are the share of values in each bin.
///
/// ```swift
/// Histogram(values: [0.1, 0.4, 0.35, 0.8, 0.75, 0.7], bins: 10, range: 0...1,
///           title: "Input values", valueLabel: "input value")
/// ```
/// Values outside `range` are counted in ``below`` and ``above`` and named in the subtitle,
/// not piled into the end bins.
public struct Histogram: Chart {
    /// The values.
    public var values: [Double]
    /// The number of bins.
    public var bins: Int
    /// The span the bins cover.
    public var range: ClosedRange<Double>
    /// The title.
    public var title: String
    /// What the values are, written under the axis.
    public var valueLabel: String
    /// Size in points.
    public var size: ChartSize

    /// Creates the chart.
    /// - Parameters:
    ///   - values: the numbers (`Float` or `Double`).
    ///   - bins: the number of equal bins, 1 or more.
    ///   - range: the span the bins cover; defaults to the values' minimum and maximum.
    ///   - title: the title.
    ///   - valueLabel: what the values are (the horizontal axis title).
    ///   - size: size in points.
    public init<Values: Sequence>(values: Values, bins: Int = 30, range: ClosedRange<Double>? = nil,
                                  title: String = "Histogram", valueLabel: String = "value",
                                  size: ChartSize = ChartSize(width: 640, height: 300)) where Values.Element: BinaryFloatingPoint {
        let doubles = values.map { Double($0) }
        self.values = doubles
        self.bins = max(1, bins)
        let low = doubles.min() ?? 0, high = doubles.max() ?? 1
        self.range = range ?? (low < high ? low...high : low...(low + 1))
        self.title = title
        self.valueLabel = valueLabel
        self.size = size
    }

    /// How many values fall in each bin (the last bin includes its upper edge).
    public var counts: [Int] {
        var counts = [Int](repeating: 0, count: bins)
        let width = (range.upperBound - range.lowerBound) / Double(bins)
        for value in values where range.contains(value) {
            counts[min(bins - 1, Int((value - range.lowerBound) / width))] += 1
        }
        return counts
    }

    /// How many values lie below the range.
    public var below: Int { values.filter { $0 < range.lowerBound }.count }
    /// How many values lie above the range.
    public var above: Int { values.filter { $0 > range.upperBound }.count }

    /// Count, range and the fullest bin.
    public var textSummary: String {
        let counts = self.counts
        let fullest = counts.indices.max { counts[$0] < counts[$1] } ?? 0
        let width = (range.upperBound - range.lowerBound) / Double(bins)
        let start = range.lowerBound + Double(fullest) * width
        return "\(title): \(values.count) values in \(bins) bins over \(NumberText.significant(range.lowerBound))..."
            + "\(NumberText.significant(range.upperBound)); fullest bin \(NumberText.significant(start))..."
            + "\(NumberText.significant(start + width)) (\(counts[fullest]))"
            + (below + above > 0 ? "; \(below) below and \(above) above the range" : "")
    }

    /// Renders the chart as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard !values.isEmpty else { throw ChartError.invalidData("there are no values") }
        guard range.upperBound > range.lowerBound else { throw ChartError.invalidData("the range is empty") }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    private func draw(on canvas: CairoCanvas) {
        let counts = self.counts
        let total = Double(values.count)
        var subtitle = "\(values.count) values, \(bins) bins of \(NumberText.significant((range.upperBound - range.lowerBound) / Double(bins)))"
        if below + above > 0 { subtitle += " · outside the axis: \(below) below, \(above) above" }
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle)
        let shares = counts.map { Double($0) / total }
        let ceiling = Ticks.nice(0, max(shares.max() ?? 0, 1e-9), count: 4)
        let yTicks = ceiling
        let yStep = yTicks.count > 1 ? yTicks[1] - yTicks[0] : 1
        let yFormat = { (v: Double) in Ticks.label(v * 100, step: yStep * 100) + " %" }
        let axisWidth = ValueAxis.labelWidth(on: canvas, ticks: yTicks, format: yFormat) + 28
        let plot = body.inset(top: 6, left: axisWidth, bottom: 44, right: 10)
        let y = LinearScale(domain: (0, yTicks.last ?? 1), range: (plot.maxY, plot.minY))
        ValueAxis.drawVertical(on: canvas, plot: plot, scale: { y($0) }, ticks: yTicks, format: yFormat, title: "share of values")
        let x = LinearScale(domain: (range.lowerBound, range.upperBound), range: (plot.minX, plot.maxX))
        let xTicks = Ticks.nice(range.lowerBound, range.upperBound, count: 6).filter { range.contains($0) }
        let xStep = xTicks.count > 1 ? xTicks[1] - xTicks[0] : 1
        let binWidth = (range.upperBound - range.lowerBound) / Double(bins)
        for (index, share) in shares.enumerated() where share > 0 {
            let left = x(range.lowerBound + Double(index) * binWidth), right = x(range.lowerBound + Double(index + 1) * binWidth)
            canvas.fill(ChartRect(x: left, y: y(share), width: max(right - left - 0.5, 0.5), height: plot.maxY - y(share)), .primary)
        }
        canvas.line(from: ChartPoint(x: plot.minX, y: plot.maxY), to: ChartPoint(x: plot.maxX, y: plot.maxY), .axis)
        for tick in xTicks {
            canvas.line(from: ChartPoint(x: x(tick), y: plot.maxY), to: ChartPoint(x: x(tick), y: plot.maxY + 4), .axis)
            canvas.text(Ticks.label(tick, step: xStep), at: ChartPoint(x: x(tick), y: plot.maxY + 6), size: ChartStyle.tickSize,
                        color: .secondaryText, horizontal: .center, vertical: .top)
        }
        canvas.text(valueLabel, at: ChartPoint(x: plot.midX, y: plot.maxY + 24), size: ChartStyle.axisTitleSize,
                    horizontal: .center, vertical: .top)
    }
}
