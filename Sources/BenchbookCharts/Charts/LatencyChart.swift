import BenchbookBenchmark
import Foundation

/// Latency per model, variant or thread count, as bars with percentile whiskers or as box plots.
///
/// - ``Style/bars``: the bar is the median; the whisker spans the 10th to 90th percentile,
///   and the p90 (MLPerf Mobile's headline figure) is written above it.
/// - ``Style/boxes``: the box spans the quartiles with the median inside; whiskers reach the
///   furthest run within 1.5 × the interquartile range (Tukey); runs beyond are dots.
///
/// The axis starts at zero so bar lengths compare honestly, unless one series is 100 times
/// slower than another: then (``AxisScale/automatic``) the axis is logarithmic, so the fast
/// ones do not vanish, and the subtitle says so.
public struct LatencyChart: Chart {
    /// How each series is drawn.
    public enum Style: Sendable, Equatable {
        /// Median bars with 10th–90th percentile whiskers.
        case bars
        /// Box plots with Tukey whiskers and outliers.
        case boxes
    }

    /// One bar or box: a label and per-run times in seconds.
    public struct Series: Sendable, Equatable {
        /// The category label, for example "fp32 · 2 threads".
        public var label: String
        /// Per-run times in seconds.
        public var samples: [Double]

        /// Creates a series.
        public init(label: String, samples: [Double]) {
            self.label = label
            self.samples = samples
        }
    }

    /// The series, left to right.
    public var series: [Series]
    /// Bars or boxes.
    public var style: Style
    /// The title.
    public var title: String
    /// Size in points.
    public var size: ChartSize
    /// The value axis: linear from zero, logarithmic, or chosen from the spread (default).
    public var axis: AxisScale = .automatic

    /// Creates the chart.
    /// - Parameters:
    ///   - series: the categories, left to right.
    ///   - style: bars (default) or boxes.
    ///   - title: the title.
    ///   - size: size in points.
    public init(series: [Series], style: Style = .bars, title: String = "Latency",
                size: ChartSize = ChartSize(width: 640, height: 380)) {
        self.series = series
        self.style = style
        self.title = title
        self.size = size
    }

    /// Creates the chart from benchmark results, one series each, labelled with the name and
    /// thread count.
    public init(_ results: [BenchmarkResult], style: Style = .bars, title: String = "Latency",
                size: ChartSize = ChartSize(width: 640, height: 380)) {
        let names = Set(results.map(\.name))
        let series = results.map { result -> Series in
            let threads = "\(result.threads) thread\(result.threads == 1 ? "" : "s")"
            let label = names.count == 1 && results.count > 1 ? threads : "\(result.name) · \(threads)"
            return Series(label: label, samples: result.samples)
        }
        self.init(series: series, style: style, title: title, size: size)
    }

    /// Creates the chart from a sweep's table, titled with the sweep.
    public init(_ table: BenchmarkTable, style: Style = .bars, size: ChartSize = ChartSize(width: 640, height: 380)) {
        self.init(table.results, style: style, title: "Latency: \(table.title)", size: size)
    }

    /// One line per series with median and p90.
    public var textSummary: String {
        ([title] + series.map { item in
            let s = LatencyStatistics(samples: item.samples)
            return "\(item.label): median \(DurationFormat.string(s.median)), p90 \(DurationFormat.string(s.p90)), \(s.count) runs"
        }).joined(separator: "\n")
    }

    /// Renders the chart as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard !series.isEmpty else { throw ChartError.invalidData("there are no series") }
        if let empty = series.first(where: { $0.samples.isEmpty }) {
            throw ChartError.invalidData("the series \"\(empty.label)\" has no run times")
        }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    private struct Summary {
        var p10, q1, median, q3, p90: Double
        var whiskerLow, whiskerHigh: Double
        var outliers: [Double]
    }

    private func summarize(_ samples: [Double]) -> Summary {
        let sorted = samples.sorted()
        func p(_ value: Double) -> Double { LatencyStatistics.percentile(value, of: sorted) }
        let q1 = p(25), q3 = p(75), iqr = q3 - q1
        let inside = sorted.filter { $0 >= q1 - 1.5 * iqr && $0 <= q3 + 1.5 * iqr }
        let outliers = sorted.filter { $0 < q1 - 1.5 * iqr || $0 > q3 + 1.5 * iqr }
        return Summary(p10: p(10), q1: q1, median: p(50), q3: q3, p90: p(90),
                       whiskerLow: inside.first ?? q1, whiskerHigh: inside.last ?? q3, outliers: outliers)
    }

    /// The axis the chart is drawn with for its data (`.linear` or `.logarithmic`).
    public var resolvedAxis: AxisScale { axis.resolved(for: series.map { LatencyStatistics(samples: $0.samples).median }) }

    private func draw(on canvas: CairoCanvas) {
        let summaries = series.map { summarize($0.samples) }
        let top = style == .bars ? summaries.map(\.p90).max() ?? 0
            : summaries.map { max($0.whiskerHigh, $0.outliers.max() ?? 0) }.max() ?? 0
        let bottom = style == .bars ? summaries.map(\.p10).min() ?? 0
            : summaries.map { min($0.whiskerLow, $0.outliers.min() ?? $0.whiskerLow) }.min() ?? 0
        let (unit, factor) = top < 1e-3 ? ("µs", 1e6) : top < 1 ? ("ms", 1e3) : ("s", 1.0)
        let logarithmic = resolvedAxis == .logarithmic && bottom > 0
        let ticks: [Double]
        let domain: (Double, Double)
        if logarithmic {
            (domain, ticks) = LogScale.ticks(bottom * factor * 0.9, top * factor * 1.12)
        } else {
            ticks = Ticks.nice(0, top * factor * 1.12, count: 5)
            domain = (0, ticks.last ?? 1)
        }
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        let format = { (v: Double) in logarithmic ? Ticks.label(v, step: v) : Ticks.label(v, step: step) }
        var subtitle = style == .bars
            ? "bar: median · whisker: 10th–90th percentile · label: p90"
            : "box: quartiles and median · whiskers: 1.5 × IQR (Tukey) · dots: outliers"
        if logarithmic { subtitle += " · log axis (values differ 100× or more)" }
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle)

        let labelSize = ChartStyle.tickSize
        let slotGuess = (body.width - 60) / Double(series.count)
        let widest = series.map { canvas.textWidth($0.label, size: labelSize) }.max() ?? 0
        let rotate = widest > slotGuess - 6
        let rotatedRoom = 150.0
        let labelHeight = rotate ? min(widest, rotatedRoom) * 0.71 + 8 : labelSize + 6
        let axisWidth = ValueAxis.labelWidth(on: canvas, ticks: ticks, format: format) + 30
        let plot = body.inset(top: 4, left: axisWidth, bottom: labelHeight + 10, right: 6)
        let mapping: ValueMapping = logarithmic
            ? .logarithmic(LogScale(domain: domain, range: (plot.maxY, plot.minY)))
            : .linear(LinearScale(domain: domain, range: (plot.maxY, plot.minY)))
        let y = { (seconds: Double) in mapping(seconds * factor) }
        ValueAxis.drawVertical(on: canvas, plot: plot, scale: { mapping($0) }, ticks: ticks, format: format,
                               title: "latency (\(unit))")

        let band = plot.width / Double(series.count)
        let width = min(band * 0.6, 90)
        let labels = canvas.fittingDistinct(series.map(\.label), size: labelSize, maximumWidth: rotate ? rotatedRoom : band - 4)
        for (index, summary) in summaries.enumerated() {
            let center = plot.minX + band * (Double(index) + 0.5)
            let color = ChartColor.primary
            switch style {
            case .bars:
                canvas.fill(ChartRect(x: center - width / 2, y: y(summary.median), width: width,
                                      height: mapping.baseline - y(summary.median)), color)
                whisker(on: canvas, x: center, from: y(summary.p10), to: y(summary.p90), cap: width * 0.3)
                canvas.text(DurationFormat.string(summary.p90), at: ChartPoint(x: center, y: y(summary.p90) - 5),
                            size: ChartStyle.annotationSize, weight: .bold, horizontal: .center, vertical: .bottom)
            case .boxes:
                whisker(on: canvas, x: center, from: y(summary.whiskerLow), to: y(summary.q1), cap: width * 0.35)
                whisker(on: canvas, x: center, from: y(summary.q3), to: y(summary.whiskerHigh), cap: width * 0.35)
                let box = ChartRect(x: center - width / 2, y: y(summary.q3), width: width, height: max(y(summary.q1) - y(summary.q3), 1))
                canvas.fill(box, color.mixed(with: .white, 0.45))
                canvas.stroke(box, color, lineWidth: 1.2)
                canvas.line(from: ChartPoint(x: box.minX, y: y(summary.median)), to: ChartPoint(x: box.maxX, y: y(summary.median)),
                            .highlight, lineWidth: 2.5)
                // At most 200 outlier dots, spread over the sorted outliers.
                let shown = summary.outliers.count <= 200 ? summary.outliers
                    : (0..<200).map { summary.outliers[$0 * summary.outliers.count / 200] }
                for value in shown {
                    canvas.fillCircle(center: ChartPoint(x: center, y: y(value)), radius: 2, color.mixed(with: .text, 0.3).withAlpha(0.55))
                }
            }
            if rotate {
                canvas.text(labels[index], at: ChartPoint(x: center + 3, y: plot.maxY + 7), size: labelSize,
                            horizontal: .trailing, vertical: .middle, rotation: -Double.pi / 4)
            } else {
                canvas.text(labels[index], at: ChartPoint(x: center, y: plot.maxY + 6), size: labelSize,
                            horizontal: .center, vertical: .top)
            }
        }
    }

    private func whisker(on canvas: CairoCanvas, x: Double, from low: Double, to high: Double, cap: Double) {
        canvas.line(from: ChartPoint(x: x, y: low), to: ChartPoint(x: x, y: high), .text, lineWidth: 1.3)
        canvas.line(from: ChartPoint(x: x - cap, y: low), to: ChartPoint(x: x + cap, y: low), .text, lineWidth: 1.3)
        canvas.line(from: ChartPoint(x: x - cap, y: high), to: ChartPoint(x: x + cap, y: high), .text, lineWidth: 1.3)
    }
}

extension ChartColor {
    /// The same colour with another opacity.
    func withAlpha(_ alpha: Double) -> ChartColor {
        ChartColor(red: red, green: green, blue: blue, alpha: alpha)
    }
}
