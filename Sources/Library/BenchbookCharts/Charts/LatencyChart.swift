import BenchbookBenchmark
import Foundation

/// Latency per model, variant or thread count, as bars with percentile whiskers or as box plots.
///
/// - ``Style/bars``: the bar is the median and the black tick on it the median's 95 %
///   interval; the whisker spans the 10th to 90th percentile, and the p90 (MLPerf Mobile's
///   headline figure) is written at its end.
/// - ``Style/boxes``: the box spans the quartiles with the median inside; whiskers reach the
///   furthest run within 1.5 × the interquartile range (Tukey); runs beyond are dots.
///
/// **Labels are never cut.** Labels go under the columns on up to two lines; when one needs
/// more, the chart turns horizontal (labels on the left, on up to three lines) and grows as
/// tall as its rows need. **Variable × threads**: results of the same name at several thread
/// counts are grouped (one colour per thread count, a legend), so "TFLite fp32" is written
/// once over its 1- and 2-thread bars. **Axis**: from zero so bar lengths compare honestly,
/// unless the medians span ``AxisScale/automaticRatio`` (10×) or more: then
/// (``AxisScale/automatic``) the axis is logarithmic, so the fast ones do not vanish next to
/// the slow ones, and the axis title says so. **Contention**: a series whose runs were
/// contended (``CPUContention``) is outlined in red, marked ⚠ and explained in the subtitle.
public struct LatencyChart: Chart {
    /// How each series is drawn.
    public enum Style: Sendable, Equatable {
        /// Median bars with 10th–90th percentile whiskers.
        case bars
        /// Box plots with Tukey whiskers and outliers.
        case boxes
    }

    /// Whether series that share a name are drawn as one group.
    public enum Grouping: Sendable, Equatable {
        /// Grouped when some name comes with more than one thread count.
        case automatic
        /// Every series on its own, labelled in full.
        case none
    }

    /// One bar or box: a label and per-run times in seconds.
    public struct Series: Sendable, Equatable {
        /// The category label, for example "fp32 · 2 threads" (in a group: "2 threads").
        public var label: String
        /// Per-run times in seconds.
        public var samples: [Double]
        /// The group the series belongs to (for example the model), or nil.
        public var group: String?
        /// Whether other work took cores the runs needed (see ``CPUContention``).
        public var isContended: Bool

        /// Creates a series.
        public init(label: String, samples: [Double], group: String? = nil, isContended: Bool = false) {
            self.label = label
            self.samples = samples
            self.group = group
            self.isContended = isContended
        }
    }

    /// The series, in order.
    public var series: [Series]
    /// Bars or boxes.
    public var style: Style
    /// The title.
    public var title: String
    /// The value axis: linear from zero, logarithmic, or chosen from the spread (default).
    public var axis: AxisScale = .automatic
    private var requestedSize: ChartSize

    /// Creates the chart.
    /// - Parameters:
    ///   - series: the categories, in order (series with the same `group` should be adjacent).
    ///   - style: bars (default) or boxes.
    ///   - title: the title.
    ///   - size: size in points (a horizontal chart grows taller when its rows need it).
    public init(series: [Series], style: Style = .bars, title: String = "Latency",
                size: ChartSize = ChartSize(width: 640, height: 380)) {
        self.series = series
        self.style = style
        self.title = title
        self.requestedSize = size
    }

    /// Creates the chart from benchmark results. Results of one name at several thread counts
    /// are grouped under the name (``Grouping/automatic``); otherwise each is labelled with
    /// what tells it apart: its name, its thread count, or both (say the thread count in the
    /// title when every result has the same).
    public init(_ results: [BenchmarkResult], style: Style = .bars, title: String = "Latency",
                grouping: Grouping = .automatic, size: ChartSize = ChartSize(width: 640, height: 380)) {
        let threadCounts = Dictionary(grouping: results, by: \.name).mapValues { Set($0.map(\.threads)).count }
        let grouped = grouping == .automatic && threadCounts.values.contains { $0 > 1 }
        let names = Set(results.map(\.name))
        let oneThreadCount = Set(results.map(\.threads)).count == 1
        let series = results.map { result -> Series in
            let threads = "\(result.threads) thread\(result.threads == 1 ? "" : "s")"
            if grouped {
                return Series(label: threads, samples: result.samples, group: names.count > 1 ? result.name : nil,
                              isContended: result.isContended)
            }
            // The part that differs between series: the thread count, the name, or both.
            let label = names.count == 1 && results.count > 1 ? threads
                : oneThreadCount && names.count == results.count && results.count > 1 ? result.name
                : "\(result.name) · \(threads)"
            return Series(label: label, samples: result.samples, isContended: result.isContended)
        }
        self.init(series: series, style: style, title: title, size: size)
    }

    /// Creates the chart from a sweep's table, titled with the sweep.
    public init(_ table: BenchmarkTable, style: Style = .bars, grouping: Grouping = .automatic,
                size: ChartSize = ChartSize(width: 640, height: 380)) {
        self.init(table.results, style: style, title: "Latency: \(table.title)", grouping: grouping, size: size)
    }

    /// The size: the one asked for, taller when a horizontal layout needs more room.
    public var size: ChartSize {
        get { layout(on: nil).size }
        set { requestedSize = newValue }
    }

    /// One line per series with the median, its interval and the p90.
    public var textSummary: String {
        ([title] + series.map { item in
            let s = LatencyStatistics(samples: item.samples)
            let name = item.group.map { "\($0) · \(item.label)" } ?? item.label
            return "\(name): median \(IntervalFormat.duration(Bootstrap.percentile(50, of: item.samples))), "
                + "p90 \(DurationFormat.string(s.p90)), \(s.count) runs" + (item.isContended ? " (contended)" : "")
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

    /// The axis the chart is drawn with for its data (`.linear` or `.logarithmic`).
    public var resolvedAxis: AxisScale { axis.resolved(for: series.map { LatencyStatistics(samples: $0.samples).median }) }

    /// Whether the chart is drawn with horizontal bars (its labels did not fit under columns).
    public var isHorizontal: Bool { layout(on: nil).orientation == .horizontal }

    // MARK: Layout

    /// A slot on the category axis: a group of adjacent series (or one series) and its label.
    struct Slot {
        var label: String
        var members: [Int]
    }

    var slots: [Slot] {
        var slots: [Slot] = []
        for (index, item) in series.enumerated() {
            if let group = item.group, let last = slots.last, series[last.members[0]].group == group {
                slots[slots.count - 1].members.append(index)
            } else {
                slots.append(Slot(label: item.group ?? item.label, members: [index]))
            }
        }
        return slots
    }

    /// The member labels drawn in the legend (grouped charts), in order.
    var legendLabels: [String] {
        guard series.contains(where: { $0.group != nil }) else { return [] }
        var labels: [String] = []
        for item in series where !labels.contains(item.label) { labels.append(item.label) }
        return labels
    }

    enum Orientation { case vertical, horizontal }

    struct Layout {
        var orientation: Orientation
        var labelLines: [[String]]
        /// The labels' type size.
        var labelSize: Double
        /// The width each label line may take.
        var labelRoom: Double
        var size: ChartSize
    }

    static let labelSize = ChartStyle.tickSize
    static let rowHeight = 24.0

    /// Columns with labels on at most two lines, each word whole within its column, when
    /// they fit; otherwise horizontal rows, labels left of them in up to 42 % of the width (in
    /// smaller type, then a wider column, when a word is wider than that).
    func layout(on given: CairoCanvas?) -> Layout {
        guard let canvas = given ?? (try? CairoCanvas(width: requestedSize.width, height: 10, scale: 1)) else {
            return Layout(orientation: .vertical, labelLines: slots.map { [$0.label] }, labelSize: Self.labelSize,
                          labelRoom: requestedSize.width, size: requestedSize)
        }
        let slots = self.slots
        let usable = requestedSize.width - 2 * ChartStyle.margin - 70
        let band = usable / Double(max(slots.count, 1))
        let columns = canvas.fit(slots.map(\.label), largest: Self.labelSize, smallest: Self.labelSize, maximumWidth: band - 6,
                                 maximumLines: 2)
        if columns.fits {
            return Layout(orientation: .vertical, labelLines: columns.lines, labelSize: columns.size, labelRoom: band - 6,
                          size: requestedSize)
        }
        let labelWidth = min(slots.map { canvas.textWidth($0.label, size: Self.labelSize) }.max() ?? 0,
                             (requestedSize.width - 2 * ChartStyle.margin) * 0.42)
        let rowLabels = RowLabels(slots.map(\.label), on: canvas, size: Self.labelSize, maximumWidth: labelWidth,
                                  minimumRowHeight: 0)
        let rowLines = rowLabels.lines
        let rows = zip(slots, rowLines).reduce(0.0) { total, pair in
            total + max(Double(pair.0.members.count) * Self.rowHeight,
                        CairoCanvas.blockHeight(lines: pair.1.count, size: rowLabels.size) + 10)
        }
        let header = ChartFrame.headerHeight(on: canvas, title: title, subtitle: subtitle(logarithmic: true),
                                             width: requestedSize.width)
        let legend = legendLabels.isEmpty ? 0.0 : 22
        let needed = ChartStyle.margin * 2 + header + 6 + legend + rows + 56
        return Layout(orientation: .horizontal, labelLines: rowLines, labelSize: rowLabels.size, labelRoom: max(labelWidth, rowLabels.width),
                      size: ChartSize(width: requestedSize.width, height: max(requestedSize.height, needed)))
    }

    private func subtitle(logarithmic: Bool) -> String {
        var text = style == .bars
            ? "bar: median, black tick: its 95 % interval · whisker: 10th–90th percentile · label: p90"
            : "box: quartiles and median · whiskers: 1.5 × IQR (Tukey) · dots: outliers"
        if logarithmic { text += " · log axis: the medians differ 10× or more" }
        if series.contains(where: \.isContended) {
            text += " · ⚠ red outline: contended run (other work took cores its threads needed)"
        }
        return text
    }

    // MARK: Drawing

    private struct Summary {
        var p10, q1, median, q3, p90: Double
        var medianLow, medianHigh: Double
        var whiskerLow, whiskerHigh: Double
        var outliers: [Double]
    }

    private func summarize(_ samples: [Double]) -> Summary {
        let sorted = samples.sorted()
        func p(_ value: Double) -> Double { LatencyStatistics.percentile(value, of: sorted) }
        let q1 = p(25), q3 = p(75), iqr = q3 - q1
        let inside = sorted.filter { $0 >= q1 - 1.5 * iqr && $0 <= q3 + 1.5 * iqr }
        let outliers = sorted.filter { $0 < q1 - 1.5 * iqr || $0 > q3 + 1.5 * iqr }
        let interval = style == .bars ? Bootstrap.percentile(50, of: sorted) : ConfidenceInterval(estimate: 0, lower: 0, upper: 0)
        return Summary(p10: p(10), q1: q1, median: p(50), q3: q3, p90: p(90), medianLow: interval.lower,
                       medianHigh: interval.upper, whiskerLow: inside.first ?? q1, whiskerHigh: inside.last ?? q3,
                       outliers: outliers)
    }

    /// Positions along the category axis and the value axis, for either orientation.
    private struct Frame {
        let plot: ChartRect
        let horizontal: Bool
        let value: (Double) -> Double

        /// A rectangle spanning `width` across the category axis at `center` and the values `a`...`b`.
        func rect(center: Double, width: Double, from a: Double, to b: Double) -> ChartRect {
            let (p, q) = (value(a), value(b))
            return horizontal
                ? ChartRect(x: min(p, q), y: center - width / 2, width: max(abs(q - p), 1), height: width)
                : ChartRect(x: center - width / 2, y: min(p, q), width: width, height: max(abs(q - p), 1))
        }

        func point(center: Double, value v: Double) -> ChartPoint {
            horizontal ? ChartPoint(x: value(v), y: center) : ChartPoint(x: center, y: value(v))
        }

        func across(center: Double, half: Double, value v: Double) -> (ChartPoint, ChartPoint) {
            horizontal ? (ChartPoint(x: value(v), y: center - half), ChartPoint(x: value(v), y: center + half))
                : (ChartPoint(x: center - half, y: value(v)), ChartPoint(x: center + half, y: value(v)))
        }
    }

    private func draw(on canvas: CairoCanvas) {
        let layout = self.layout(on: canvas)
        let horizontal = layout.orientation == .horizontal
        let summaries = series.map { summarize($0.samples) }
        let top = style == .bars ? summaries.map(\.p90).max() ?? 0
            : summaries.map { max($0.whiskerHigh, $0.outliers.max() ?? 0) }.max() ?? 0
        let bottom = style == .bars ? summaries.map { min($0.p10, $0.medianLow) }.min() ?? 0
            : summaries.map { min($0.whiskerLow, $0.outliers.min() ?? $0.whiskerLow) }.min() ?? 0
        let (unit, factor) = top < 1e-3 ? ("µs", 1e6) : top < 1 ? ("ms", 1e3) : ("s", 1.0)
        let logarithmic = resolvedAxis == .logarithmic && bottom > 0
        let ticks: [Double]
        let domain: (Double, Double)
        if logarithmic {
            (domain, ticks) = LogScale.ticks(bottom * factor * 0.9, top * factor * 1.15)
        } else {
            ticks = Ticks.nice(0, top * factor * 1.15, count: 5)
            domain = (0, ticks.last ?? 1)
        }
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        let format = { (v: Double) in logarithmic ? Ticks.label(v, step: v) : Ticks.label(v, step: step) }
        var body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle(logarithmic: logarithmic))
        let legend = legendLabels
        if !legend.isEmpty {
            drawLegend(legend, on: canvas, at: body.minY)
            body = body.inset(top: 22)
        }
        let axisTitle = "latency (\(unit)\(logarithmic ? ", log axis" : ""))"
        let slots = self.slots
        let plot: ChartRect
        if horizontal {
            let labelWidth = canvas.widest(layout.labelLines, size: layout.labelSize) + 10
            let valueRoom = canvas.textWidth("p90 000 ms ⚠", size: ChartStyle.annotationSize, weight: .bold)
            plot = body.inset(top: 2, left: labelWidth, bottom: 44, right: valueRoom)
        } else {
            let lines = layout.labelLines.map(\.count).max() ?? 1
            let labelHeight = CairoCanvas.blockHeight(lines: lines, size: layout.labelSize) + 8
            let axisWidth = ValueAxis.labelWidth(on: canvas, ticks: ticks, format: format) + 30
            plot = body.inset(top: 16, left: axisWidth, bottom: labelHeight + 6, right: 6)
        }
        let valueRange = horizontal ? (plot.minX, plot.maxX) : (plot.maxY, plot.minY)
        let mapping: ValueMapping = logarithmic
            ? .logarithmic(LogScale(domain: domain, range: valueRange))
            : .linear(LinearScale(domain: domain, range: valueRange))
        let frame = Frame(plot: plot, horizontal: horizontal, value: { mapping($0 * factor) })
        if horizontal {
            ValueAxis.drawHorizontal(on: canvas, plot: plot, scale: { mapping($0) }, ticks: ticks, format: format, title: axisTitle)
        } else {
            ValueAxis.drawVertical(on: canvas, plot: plot, scale: { mapping($0) }, ticks: ticks, format: format, title: axisTitle)
        }

        // Slot extents along the category axis: columns share the width; rows take what their
        // members and label lines need.
        var extents: [(start: Double, length: Double)] = []
        if horizontal {
            let wanted = zip(slots, layout.labelLines).map { slot, lines in
                max(Double(slot.members.count) * Self.rowHeight, CairoCanvas.blockHeight(lines: lines.count, size: layout.labelSize) + 10)
            }
            let scale = plot.height / max(wanted.reduce(0, +), 1)
            var start = plot.minY
            for length in wanted {
                extents.append((start, length * scale))
                start += length * scale
            }
        } else {
            let band = plot.width / Double(max(slots.count, 1))
            extents = slots.indices.map { (plot.minX + band * Double($0), band) }
        }
        for (slotIndex, slot) in slots.enumerated() {
            let (start, length) = extents[slotIndex]
            let memberLength = length * (horizontal ? 1 : 0.8) / Double(slot.members.count)
            let offset = start + length * (horizontal ? 0 : 0.1)
            for (position, index) in slot.members.enumerated() {
                let center = offset + memberLength * (Double(position) + 0.5)
                let width = min(memberLength * (horizontal ? 0.62 : 0.72), 90)
                let color = legend.isEmpty ? ChartColor.primary : Self.palette[(legend.firstIndex(of: series[index].label) ?? 0) % Self.palette.count]
                drawSeries(summaries[index], contended: series[index].isContended, color: color, center: center,
                           width: width, frame: frame, on: canvas)
            }
            let lines = layout.labelLines[slotIndex]
            if horizontal {
                canvas.text(lines: lines, at: ChartPoint(x: plot.minX - 8, y: start + length / 2), size: layout.labelSize,
                            horizontal: .trailing, vertical: .middle)
                if slotIndex > 0 {
                    canvas.line(from: ChartPoint(x: plot.minX, y: start), to: ChartPoint(x: plot.maxX, y: start), .grid)
                }
            } else {
                canvas.text(lines: lines, at: ChartPoint(x: start + length / 2, y: plot.maxY + 6), size: layout.labelSize,
                            horizontal: .center, vertical: .top)
            }
        }
    }

    /// One bar or box with its whiskers and annotations.
    private func drawSeries(_ summary: Summary, contended: Bool, color: ChartColor, center: Double, width: Double,
                            frame: Frame, on canvas: CairoCanvas) {
        let outline: ChartColor = .wrong
        let baseline = frame.horizontal ? frame.plot.minX : frame.plot.maxY
        switch style {
        case .bars:
            let bar = frame.rect(center: center, width: width, from: 0, to: summary.median)
            let barRect = frame.horizontal
                ? ChartRect(x: baseline, y: bar.y, width: max(frame.value(summary.median) - baseline, 1), height: bar.height)
                : ChartRect(x: bar.x, y: frame.value(summary.median), width: bar.width, height: max(baseline - frame.value(summary.median), 1))
            canvas.fill(barRect, color)
            if contended { canvas.stroke(barRect, outline, lineWidth: 2) }
            whisker(on: canvas, frame: frame, center: center, from: summary.p10, to: summary.p90, cap: width * 0.3)
            // The median's 95 % interval: a small capped bar beside the whisker, across the bar's end.
            let tickCenter = center - width * 0.25
            let a = frame.point(center: tickCenter, value: summary.medianLow)
            let b = frame.point(center: tickCenter, value: summary.medianHigh)
            canvas.line(from: a, to: b, .text, lineWidth: 2.5)
            for value in [summary.medianLow, summary.medianHigh] {
                let (capStart, capEnd) = frame.across(center: tickCenter, half: width * 0.08, value: value)
                canvas.line(from: capStart, to: capEnd, .text, lineWidth: 1.5)
            }
            let label = DurationFormat.string(summary.p90) + (contended ? " ⚠" : "")
            let end = frame.point(center: center, value: summary.p90)
            if frame.horizontal {
                canvas.text(label, at: ChartPoint(x: end.x + 5, y: end.y), size: ChartStyle.annotationSize,
                            color: contended ? outline : .text, weight: .bold, horizontal: .leading, vertical: .middle)
            } else {
                canvas.text(label, at: ChartPoint(x: end.x, y: end.y - 5), size: ChartStyle.annotationSize,
                            color: contended ? outline : .text, weight: .bold, horizontal: .center, vertical: .bottom)
            }
        case .boxes:
            whisker(on: canvas, frame: frame, center: center, from: summary.whiskerLow, to: summary.q1, cap: width * 0.35)
            whisker(on: canvas, frame: frame, center: center, from: summary.q3, to: summary.whiskerHigh, cap: width * 0.35)
            let box = frame.rect(center: center, width: width, from: summary.q1, to: summary.q3)
            canvas.fill(box, color.mixed(with: .white, 0.45))
            canvas.stroke(box, contended ? outline : color, lineWidth: contended ? 2 : 1.2)
            let (m1, m2) = frame.across(center: center, half: width / 2, value: summary.median)
            canvas.line(from: m1, to: m2, .text, lineWidth: 2.5)
            // At most 200 outlier dots, spread over the sorted outliers.
            let shown = summary.outliers.count <= 200 ? summary.outliers
                : (0..<200).map { summary.outliers[$0 * summary.outliers.count / 200] }
            for value in shown {
                canvas.fillCircle(center: frame.point(center: center, value: value), radius: 2,
                                  color.mixed(with: .text, 0.3).withAlpha(0.55))
            }
            if contended {
                let end = frame.point(center: center, value: max(summary.whiskerHigh, summary.outliers.max() ?? 0))
                canvas.text("⚠", at: frame.horizontal ? ChartPoint(x: end.x + 6, y: end.y) : ChartPoint(x: end.x, y: end.y - 4),
                            size: ChartStyle.annotationSize, color: outline, weight: .bold,
                            horizontal: frame.horizontal ? .leading : .center, vertical: frame.horizontal ? .middle : .bottom)
            }
        }
    }

    private func whisker(on canvas: CairoCanvas, frame: Frame, center: Double, from low: Double, to high: Double, cap: Double) {
        canvas.line(from: frame.point(center: center, value: low), to: frame.point(center: center, value: high), .text, lineWidth: 1.3)
        for value in [low, high] {
            let (a, b) = frame.across(center: center, half: cap, value: value)
            canvas.line(from: a, to: b, .text, lineWidth: 1.3)
        }
    }

    /// Colours of the members of a group, in legend order.
    static let palette: [ChartColor] = [.primary, .highlight, .correct, ChartColor(hex: 0x9467BD)]

    private func drawLegend(_ labels: [String], on canvas: CairoCanvas, at y: Double) {
        var x = ChartStyle.margin
        for (index, label) in labels.enumerated() {
            canvas.fill(ChartRect(x: x, y: y + 3, width: 11, height: 11), Self.palette[index % Self.palette.count])
            canvas.text(label, at: ChartPoint(x: x + 16, y: y + 8.5), size: Self.labelSize, vertical: .middle)
            x += 16 + canvas.textWidth(label, size: Self.labelSize) + 18
        }
    }
}

extension ChartColor {
    /// The same colour with another opacity.
    func withAlpha(_ alpha: Double) -> ChartColor {
        ChartColor(red: red, green: green, blue: blue, alpha: alpha)
    }
}
