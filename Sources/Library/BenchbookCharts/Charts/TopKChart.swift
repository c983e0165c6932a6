import Foundation

/// The k most probable classes as horizontal bars, best first, each with its percentage.
public struct TopKChart: Chart {
    /// One probability per class, in class order.
    public var probabilities: [Double]
    /// Class names, in class order.
    public var labels: [String]
    /// How many classes to show.
    public var k: Int
    /// The title.
    public var title: String
    /// Size in points; the height follows from k.
    public var size: ChartSize

    /// Creates the chart.
    /// - Parameters:
    ///   - probabilities: one value per class (0...1), `Float` or `Double`.
    ///   - labels: class names; indices are used when empty.
    ///   - k: how many of the most probable classes to show.
    ///   - title: the title; "Top-k predictions" when nil.
    ///   - width: width in points (the height follows from k).
    public init<Values: Sequence>(
        probabilities: Values, labels: [String] = [], k: Int = 5, title: String? = nil, width: Double = 560
    ) where Values.Element: BinaryFloatingPoint {
        let probabilities = probabilities.map { Double($0) }
        self.probabilities = probabilities
        self.labels = labels
        self.k = max(1, min(k, probabilities.count))
        self.title = title ?? "Top-\(max(1, min(k, probabilities.count))) predictions"
        self.size = ChartSize(width: width, height: 0)   // the width, which rowLabels(on:) reads
        let rowHeight = (try? CairoCanvas(width: 100, height: 10, scale: 1)).map { rowLabels(on: $0).rowHeight } ?? 30
        self.size = ChartSize(width: width, height: 78 + rowHeight * Double(self.k) + 30
            + ChartFrame.extraHeaderHeight(title: self.title, subtitle: "of \(probabilities.count) classes", width: width))
    }

    /// Class indices of the top k, best first (ties keep class order).
    var ranking: [Int] {
        Array(probabilities.indices.sorted { a, b in
            probabilities[a] != probabilities[b] ? probabilities[a] > probabilities[b] : a < b
        }.prefix(k))
    }

    func label(_ index: Int) -> String { labels.count == probabilities.count ? labels[index] : "class \(index)" }

    /// The class names of the ranking as they are drawn (bold, in 40 % of the body's width).
    func rowLabels(on canvas: CairoCanvas) -> RowLabels {
        RowLabels(ranking.map(label), on: canvas, size: 12, weight: .bold, maximumWidth: (size.width - 2 * ChartStyle.margin) * 0.4,
                  minimumRowHeight: 30)
    }

    /// The ranking as lines of text.
    public var textSummary: String {
        ([title] + ranking.enumerated().map { rank, index in
            "\(rank + 1). \(label(index)) \(NumberText.percent(probabilities[index]))"
        }).joined(separator: "\n")
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
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: "of \(probabilities.count) classes")
        let order = ranking
        let labelSize = 12.0
        let names = rowLabels(on: canvas)
        let labelWidth = names.width + 10
        let valueWidth = canvas.textWidth("100.0 %", size: labelSize) + 10
        let plot = body.inset(top: 0, left: labelWidth, bottom: 30, right: valueWidth)
        let x = LinearScale(domain: (0, 1), range: (plot.minX, plot.maxX))
        let ticks = [0, 0.25, 0.5, 0.75, 1.0]
        ValueAxis.drawHorizontal(on: canvas, plot: plot, scale: { x($0) }, ticks: ticks,
                                 format: { NumberText.fixed($0 * 100, decimals: 0) + " %" }, title: nil)
        let row = plot.height / Double(order.count)
        for (rank, index) in order.enumerated() {
            let value = min(max(probabilities[index], 0), 1)
            let top = plot.minY + row * Double(rank)
            let bar = ChartRect(x: plot.minX, y: top + row * 0.18, width: max(x(value) - plot.minX, 1), height: row * 0.64)
            canvas.fill(bar, rank == 0 ? .highlight : .primary)
            canvas.text(lines: names.lines[rank], at: ChartPoint(x: plot.minX - 8, y: bar.midY), size: names.size,
                        weight: rank == 0 ? .bold : .regular, horizontal: .trailing, vertical: .middle)
            canvas.text(NumberText.percent(probabilities[index]), at: ChartPoint(x: bar.maxX + 5, y: bar.midY),
                        size: labelSize, weight: rank == 0 ? .bold : .regular, vertical: .middle)
        }
    }
}
