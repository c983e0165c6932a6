import Foundation

/// A confusion matrix: rows are true classes, columns predicted classes, each cell the
/// count, coloured by the share of its row (so rare classes read as clearly as common ones).
public struct ConfusionMatrixChart: Chart {
    /// `counts[true][predicted]`.
    public var counts: [[Int]]
    /// Class names, in class order.
    public var labels: [String]
    /// The title.
    public var title: String
    /// Size in points.
    public var size: ChartSize

    /// Creates the chart.
    /// - Parameters:
    ///   - counts: a square matrix, `counts[trueClass][predictedClass]`.
    ///   - labels: class names; indices are used when empty.
    ///   - title: the title.
    ///   - size: size in points.
    public init(counts: [[Int]], labels: [String] = [], title: String = "Confusion matrix",
                size: ChartSize = ChartSize(width: 600, height: 560)) {
        self.counts = counts
        self.labels = labels
        self.title = title
        self.size = size
    }

    /// Builds the matrix from true and predicted class indices.
    /// - Parameters:
    ///   - truth: the true class of each sample.
    ///   - predictions: the predicted class of each sample.
    ///   - labels: class names; their count fixes the class count.
    ///   - title: the title.
    /// - Throws: ``ChartError/invalidData(_:)`` when lengths differ or an index is out of range.
    public init(truth: [Int], predictions: [Int], labels: [String], title: String = "Confusion matrix") throws {
        guard truth.count == predictions.count else {
            throw ChartError.invalidData("\(truth.count) true labels but \(predictions.count) predictions")
        }
        let classes = labels.count
        var counts = [[Int]](repeating: [Int](repeating: 0, count: classes), count: classes)
        for (t, p) in zip(truth, predictions) {
            guard (0..<classes).contains(t), (0..<classes).contains(p) else {
                throw ChartError.invalidData("class index \(max(t, p)) is outside the \(classes) labels")
            }
            counts[t][p] += 1
        }
        self.init(counts: counts, labels: labels, title: title)
    }

    private var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }
    private var correct: Int { counts.indices.reduce(0) { $0 + (counts[$1].indices.contains($1) ? counts[$1][$1] : 0) } }

    /// Overall accuracy (the diagonal's share), 0 when empty.
    public var accuracy: Double { total > 0 ? Double(correct) / Double(total) : 0 }

    func label(_ index: Int) -> String { labels.isEmpty ? String(index) : labels[index] }

    /// Accuracy and size.
    public var textSummary: String {
        "\(title): \(counts.count) classes, \(total) samples, accuracy \(NumberText.percent(accuracy))"
    }

    /// Renders the chart as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        let n = counts.count
        guard n > 0, counts.allSatisfy({ $0.count == n }) else {
            throw ChartError.invalidData("the matrix must be square and non-empty")
        }
        guard labels.isEmpty || labels.count == n else {
            throw ChartError.invalidData("\(n) classes but \(labels.count) labels")
        }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    /// The class names along both axes, each whole on one line (the columns' turned 45°), and
    /// the matrix they leave room for.
    struct AxisLabelLayout {
        /// Type size: the largest (11 down to 7 points) at which neighbouring names do not touch.
        var size: Double
        /// Side of one cell.
        var cell: Double
        /// The matrix.
        var plot: ChartRect
    }

    /// Names take the room the longest needs; the type gets smaller while a cell is too small
    /// for two neighbouring turned names (a cell × sin 45° is the room between their baselines).
    func axisLabelLayout(on canvas: CairoCanvas, body: ChartRect) -> AxisLabelLayout {
        let n = Double(counts.count)
        let names = counts.indices.map(label)
        var size = ChartStyle.tickSize
        while true {
            let nameWidth = names.map { canvas.textWidth($0, size: size) }.max() ?? 0
            let area = body.inset(top: 0, left: nameWidth + 30, bottom: nameWidth * 0.71 + 36, right: 4)
            let cell = min(area.width / n, area.height / n)
            if CairoCanvas.lineHeight(size) <= cell * 0.5.squareRoot() || size <= 7 {
                return AxisLabelLayout(size: size, cell: cell,
                                       plot: ChartRect(x: area.minX, y: area.minY, width: cell * n, height: cell * n))
            }
            size -= 0.5
        }
    }

    private var subtitle: String {
        "accuracy \(NumberText.percent(accuracy)) (\(correct) of \(total)); colour: share of the true class's row"
    }

    /// The axis-label layout the chart is drawn with.
    func axisLabelLayout() throws -> AxisLabelLayout {
        let canvas = try CairoCanvas(width: size.width, height: size.height, scale: 1)
        return axisLabelLayout(on: canvas, body: ChartFrame.draw(on: canvas, title: title, subtitle: subtitle))
    }

    private func draw(on canvas: CairoCanvas) {
        let n = counts.count
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle)
        let names = (0..<n).map(label)   // whole: the layout makes room for the longest
        let layout = axisLabelLayout(on: canvas, body: body)
        let tick = layout.size, cell = layout.cell, plot = layout.plot
        for t in 0..<n {
            let rowTotal = max(counts[t].reduce(0, +), 1)
            for p in 0..<n {
                let share = Double(counts[t][p]) / Double(rowTotal)
                let color = counts[t][p] == 0 ? ChartColor.white : ColorMap.blues.color(at: 0.08 + 0.92 * share)
                let rect = ChartRect(x: plot.minX + Double(p) * cell, y: plot.minY + Double(t) * cell, width: cell, height: cell)
                canvas.fill(rect, color)
                canvas.stroke(rect, .grid, lineWidth: 0.5)
                if cell >= 16 {
                    canvas.text(String(counts[t][p]), at: ChartPoint(x: rect.midX, y: rect.midY),
                                size: min(12, cell * 0.36), color: counts[t][p] == 0 ? .axis : color.contrastingText,
                                weight: t == p ? .bold : .regular, horizontal: .center, vertical: .middle)
                }
            }
        }
        canvas.stroke(plot, .axis, lineWidth: 0.8)
        for index in 0..<n {
            let center = Double(index) + 0.5
            canvas.text(names[index], at: ChartPoint(x: plot.minX - 6, y: plot.minY + center * cell), size: tick,
                        horizontal: .trailing, vertical: .middle)
            canvas.text(names[index], at: ChartPoint(x: plot.minX + center * cell + 3, y: plot.maxY + 6), size: tick,
                        horizontal: .trailing, vertical: .middle, rotation: -Double.pi / 4)
        }
        canvas.text("predicted", at: ChartPoint(x: plot.midX, y: canvas.height - ChartStyle.margin), size: ChartStyle.axisTitleSize,
                    weight: .bold, horizontal: .center, vertical: .bottom)
        canvas.text("true", at: ChartPoint(x: ChartStyle.margin, y: plot.midY), size: ChartStyle.axisTitleSize,
                    weight: .bold, horizontal: .center, vertical: .top, rotation: -Double.pi / 2)
    }
}
