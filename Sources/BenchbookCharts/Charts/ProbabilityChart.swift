import Foundation

/// Class probabilities (a softmax output) as vertical bars, the top class highlighted.
///
/// ```swift
/// let logits = try Tensor(shape: [1, 10], float32: [1.2, -0.5, 2.1, 0.3, 3.4, -1.2, 2.6, -0.8, 0.1, -1.5])
/// display(ProbabilityChart(probabilities: try logits.softmax().floats, labels: FashionMNIST.classNames))
/// ```
/// With more than 40 classes only the top class is labelled under its bar. Labels that do not
/// fit are shortened in the middle, never so that two of them look the same. For
/// accuracies, counts or other values that are not class probabilities, use ``BarChart``.
public struct ProbabilityChart: Chart {
    /// One probability per class, in class order.
    public var probabilities: [Double]
    /// Class names, in class order.
    public var labels: [String]
    /// The title.
    public var title: String
    /// Size in points.
    public var size: ChartSize

    /// Creates the chart.
    /// - Parameters:
    ///   - probabilities: one value per class (0...1), `Float` or `Double`.
    ///   - labels: class names; indices are used when empty.
    ///   - title: the title.
    ///   - size: size in points.
    public init<Values: Sequence>(
        probabilities: Values, labels: [String] = [], title: String = "Class probabilities",
        size: ChartSize = ChartSize(width: 640, height: 360)
    ) where Values.Element: BinaryFloatingPoint {
        self.probabilities = probabilities.map { Double($0) }
        self.labels = labels
        self.title = title
        self.size = size
    }

    /// Index of the most probable class.
    var topIndex: Int? { probabilities.indices.max { probabilities[$0] < probabilities[$1] } }

    func label(_ index: Int) -> String { labels.isEmpty ? String(index) : labels[index] }

    /// The top class and its probability.
    public var textSummary: String {
        guard let top = topIndex else { return "\(title): no classes" }
        return "\(title): top class \(label(top)) (\(NumberText.percent(probabilities[top]))) of \(probabilities.count)"
    }

    /// Renders the chart as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard !probabilities.isEmpty else { throw ChartError.invalidData("there are no probabilities") }
        guard labels.isEmpty || labels.count == probabilities.count else {
            throw ChartError.invalidData("\(probabilities.count) probabilities but \(labels.count) labels")
        }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    private func draw(on canvas: CairoCanvas) {
        let top = topIndex ?? 0
        let subtitle = "top: \(label(top)), \(NumberText.percent(probabilities[top]))"
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle)
        let count = probabilities.count
        let peak = max(probabilities.max() ?? 1, 1e-9)
        let ceiling = peak > 0.5 ? 1.0 : Ticks.nice(0, peak, count: 5).last ?? 1
        let ticks = Ticks.nice(0, ceiling, count: 5)
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        let format = { (v: Double) in Ticks.label(v * 100, step: step * 100) + " %" }

        // Class labels under their bars, broken into lines (at most three; smaller type if
        // a name still needs more), never cut.
        let shown = count <= 40
        let axisWidth = ValueAxis.labelWidth(on: canvas, ticks: ticks, format: format) + 28
        let slot = (body.width - axisWidth - 4) / Double(count)
        var labelSize = ChartStyle.tickSize
        var names: [[String]] = shown ? canvas.lines(of: (0..<count).map(label), size: labelSize, maximumWidth: slot - 3) : []
        while shown && labelSize > 8 && names.contains(where: { $0.count > 3 }) {
            labelSize -= 0.5
            names = canvas.lines(of: (0..<count).map(label), size: labelSize, maximumWidth: slot - 3)
        }
        let labelLines = names.map(\.count).max() ?? 1
        let labelHeight = CairoCanvas.blockHeight(lines: labelLines, size: labelSize) + 4
        let plot = body.inset(top: 14, left: axisWidth, bottom: labelHeight + 8 + ChartStyle.axisTitleSize + 10, right: 4)
        let y = LinearScale(domain: (0, ticks.last ?? 1), range: (plot.maxY, plot.minY))
        ValueAxis.drawVertical(on: canvas, plot: plot, scale: { y($0) }, ticks: ticks, format: format, title: "probability")

        let band = plot.width / Double(count)
        let barWidth = max(1, band * (count > 100 ? 1 : 0.72))
        for index in 0..<count {
            let value = min(max(probabilities[index], 0), ticks.last ?? 1)
            let x = plot.minX + band * Double(index) + (band - barWidth) / 2
            let color: ChartColor = index == top ? .highlight : .primary
            canvas.fill(ChartRect(x: x, y: y(value), width: barWidth, height: plot.maxY - y(value)), color)
            let center = x + barWidth / 2
            if shown {
                canvas.text(lines: names[index], at: ChartPoint(x: center, y: plot.maxY + 5), size: labelSize,
                            weight: index == top ? .bold : .regular, horizontal: .center, vertical: .top)
            }
        }
        if !shown {
            // Too many classes to name: index ticks along the axis, the top class named over its bar.
            let ticks = Ticks.nice(0, Double(count - 1), count: 8).filter { $0 <= Double(count - 1) }
            let indexStep = ticks.count > 1 ? ticks[1] - ticks[0] : 1
            for tick in ticks {
                canvas.text(Ticks.label(tick, step: indexStep), at: ChartPoint(x: plot.minX + band * (tick + 0.5), y: plot.maxY + 5),
                            size: ChartStyle.tickSize, color: .secondaryText, horizontal: .center, vertical: .top)
            }
        }
        // Value (and, with many classes, the name) over the top bar.
        let topX = plot.minX + band * (Double(top) + 0.5)
        let topText = shown ? NumberText.percent(probabilities[top]) : "\(label(top)): \(NumberText.percent(probabilities[top]))"
        let topWidth = canvas.textWidth(topText, size: ChartStyle.annotationSize, weight: .bold)
        let anchor: HorizontalAnchor = topX + topWidth / 2 > plot.maxX ? .trailing : topX - topWidth / 2 < plot.minX ? .leading : .center
        canvas.text(topText, at: ChartPoint(x: topX, y: y(min(probabilities[top], ticks.last ?? 1)) - 4),
                    size: ChartStyle.annotationSize, weight: .bold, horizontal: anchor, vertical: .bottom)
        canvas.text(shown ? "class" : "class index", at: ChartPoint(x: plot.midX, y: canvas.height - ChartStyle.margin), size: ChartStyle.axisTitleSize,
                    horizontal: .center, vertical: .bottom)
    }
}
