import Foundation

/// Class probabilities (a softmax output) as vertical bars, the top class highlighted.
///
/// ```swift
/// let logits = try Tensor(shape: [1, 10], float32: [1.2, -0.5, 2.1, 0.3, 3.4, -1.2, 2.6, -0.8, 0.1, -1.5])
/// display(ProbabilityChart(probabilities: try logits.softmax().floats, labels: FashionMNIST.classNames))
/// ```
/// **Class names** go under their bars on up to three lines, broken at spaces and after a
/// name's own separators ("T-shirt/" "top"), never inside a word; in smaller type (down to
/// 9 points) when a word is wider than its bar's slot, and turned 45° (90° when the slots are
/// very narrow) when that is not enough. With more than 40 classes the bars are too thin to
/// name: the axis shows class indices.
///
/// **Values**: the top class and every class of ``valueThreshold`` (5 %) or more carry their
/// probability over the bar (with more than 40 classes: the top bar, with its name, and the
/// subtitle lists the others of 5 % or more). For accuracies, counts or other values that are
/// not class probabilities, use ``BarChart``.
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

    func label(_ index: Int) -> String { labels.indices.contains(index) ? labels[index] : String(index) }

    /// The top class and its probability, then every other class of ``valueThreshold`` or more.
    public var textSummary: String {
        guard let top = topIndex else { return "\(title): no classes" }
        let others = valued.filter { $0 != top }.map { "\(label($0)) \(NumberText.percent(probabilities[$0]))" }
        return "\(title): top class \(label(top)) (\(NumberText.percent(probabilities[top]))) of \(probabilities.count)"
            + (others.isEmpty ? "" : "; then " + others.joined(separator: ", "))
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
        let layout = self.layout(on: canvas)
        let plot = layout.plot, names = layout.classLabels, values = layout.values
        let top = topIndex ?? 0
        let count = probabilities.count
        let ticks = valueTicks
        let y = LinearScale(domain: (0, ticks.last ?? 1), range: (plot.maxY, plot.minY))
        ValueAxis.drawVertical(on: canvas, plot: plot, scale: { y($0) }, ticks: ticks, format: tickFormat(ticks), title: "probability")

        let band = plot.width / Double(count)
        let barWidth = max(1, band * (count > 100 ? 1 : 0.72))
        for index in 0..<count {
            let value = min(max(probabilities[index], 0), ticks.last ?? 1)
            let x = plot.minX + band * Double(index) + (band - barWidth) / 2
            canvas.fill(ChartRect(x: x, y: y(value), width: barWidth, height: plot.maxY - y(value)), index == top ? .highlight : .primary)
            guard namesClasses else { continue }
            let anchor = ChartPoint(x: x + barWidth / 2, y: plot.maxY + 5)
            let weight: FontWeight = index == top ? .bold : .regular
            if names.rotation == 0 {
                canvas.text(lines: names.lines[index], at: anchor, size: names.size, weight: weight, horizontal: .center, vertical: .top)
            } else {
                canvas.text(names.lines[index][0], at: anchor, size: names.size,
                            weight: weight, horizontal: .trailing, vertical: .middle, rotation: names.rotation)
            }
        }
        if !namesClasses {
            // Too many classes to name: index ticks along the axis.
            let ticks = Ticks.nice(0, Double(count - 1), count: 8).filter { $0 <= Double(count - 1) }
            let indexStep = ticks.count > 1 ? ticks[1] - ticks[0] : 1
            for tick in ticks {
                canvas.text(Ticks.label(tick, step: indexStep), at: ChartPoint(x: plot.minX + band * (tick + 0.5), y: plot.maxY + 5),
                            size: ChartStyle.tickSize, color: .secondaryText, horizontal: .center, vertical: .top)
            }
        }
        // Values over the bars that carry one (with many classes, only the top bar's, named).
        for index in namesClasses ? valued : [top] {
            let center = plot.minX + band * (Double(index) + 0.5)
            let barTop = y(min(probabilities[index], ticks.last ?? 1)) - 4
            let text = valueText(index)
            let weight: FontWeight = index == top ? .bold : .regular
            if values.rotation == 0 || !namesClasses {
                let width = canvas.textWidth(text, size: values.size, weight: weight)
                let anchor: HorizontalAnchor = center + width / 2 > plot.maxX ? .trailing : center - width / 2 < plot.minX ? .leading : .center
                canvas.text(text, at: ChartPoint(x: center, y: barTop), size: values.size, weight: weight,
                            horizontal: anchor, vertical: .bottom)
            } else {
                canvas.text(text, at: ChartPoint(x: center + values.size * 0.35, y: barTop), size: values.size, weight: weight,
                            horizontal: .leading, vertical: .middle, rotation: values.rotation)
            }
        }
        canvas.text(namesClasses ? "class" : "class index", at: ChartPoint(x: plot.midX, y: canvas.height - ChartStyle.margin),
                    size: ChartStyle.axisTitleSize, horizontal: .center, vertical: .bottom)
    }
}
