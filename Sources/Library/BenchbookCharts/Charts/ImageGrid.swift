import Foundation

/// Images in a grid, each with its prediction, confidence and whether it was right.
///
/// A correct prediction gets a green frame and caption; a wrong one a red frame and the
/// true label under the prediction. Small images (28 × 28) are enlarged with hard pixel
/// edges so the reader sees what the model saw.
public struct ImageGrid: Chart {
    /// One cell of the grid.
    public struct Item: Sendable, Equatable {
        /// The pixels.
        public var image: ChartImage
        /// The predicted label (or any caption).
        public var prediction: String
        /// Confidence of the prediction, 0...1, if known.
        public var confidence: Double?
        /// The true label, if known; decides right or wrong.
        public var truth: String?

        /// Creates a grid cell.
        /// - Parameters:
        ///   - image: the pixels.
        ///   - prediction: the predicted label or caption.
        ///   - confidence: its probability, if known.
        ///   - truth: the true label, if known.
        public init(image: ChartImage, prediction: String, confidence: Double? = nil, truth: String? = nil) {
            self.image = image
            self.prediction = prediction
            self.confidence = confidence
            self.truth = truth
        }

        /// True or false when the truth is known, nil otherwise.
        public var isCorrect: Bool? { truth.map { $0 == prediction } }
    }

    /// The cells, row by row.
    public var items: [Item]
    /// Images per row.
    public var columns: Int
    /// Side of each image in points.
    public var cellSize: Double
    /// The title.
    public var title: String

    /// Creates a grid.
    /// - Parameters:
    ///   - items: the cells, row by row.
    ///   - columns: images per row; up to 6 when nil.
    ///   - cellSize: side of each image in points.
    ///   - title: the title.
    public init(_ items: [Item], columns: Int? = nil, cellSize: Double = 96, title: String = "Predictions") {
        self.items = items
        self.columns = max(1, columns ?? min(6, max(items.count, 1)))
        self.cellSize = cellSize
        self.title = title
    }

    private var rows: Int { (items.count + columns - 1) / columns }
    private var hasTruth: Bool { items.contains { $0.truth != nil } }
    /// The captions under the images: their lines, type size and the cell width they need.
    struct CaptionLayout {
        /// Type size of the predictions (the true classes are a point smaller).
        var size: Double
        /// Width of each cell.
        var cellWidth: Double
        /// Each item's prediction (with its ✓ or ✗) broken into lines.
        var predictionLines: [[String]]
        /// Each wrong item's "true: …" broken into lines; nil for the others.
        var truthLines: [[String]?]
        /// Room under each image for the tallest caption.
        var height: Double
    }

    private static func mark(_ item: Item) -> String { item.isCorrect.map { $0 ? "✓ " : "✗ " } ?? "" }

    /// Captions broken into lines within the cell, in type from 11.5 down to 9.5 points when a
    /// word is wider than the cell; when that is not enough, cells as wide as the widest word.
    func captionLayout(on canvas: CairoCanvas) -> CaptionLayout {
        let predictions = items.map { Self.mark($0) + $0.prediction }
        let truths = items.map { $0.isCorrect == false ? $0.truth.map { "true: " + $0 } : nil }
        var cellWidth = max(cellSize, 104) + 12
        var size = 11.5
        var predictionLines: [[String]] = []
        var truthLines: [[String]?] = []
        var widened = false
        while true {
            predictionLines = canvas.lines(of: predictions, size: size, maximumWidth: cellWidth - 4, weight: .bold)
            truthLines = truths.map { $0.map { canvas.lines($0, size: size - 1, maximumWidth: cellWidth - 4) } }
            let fits = canvas.fits(predictionLines, size: size, maximumWidth: cellWidth - 4, weight: .bold)
                && canvas.fits(truthLines.compactMap { $0 }, size: size - 1, maximumWidth: cellWidth - 4)
            if fits || widened { break }
            if size > 9.5 {
                size -= 0.5
                continue
            }
            // The widest line here is a word that cannot break: the cells take its width, and
            // the captions break again at that width.
            cellWidth = max(canvas.widest(predictionLines, size: size, weight: .bold),
                            canvas.widest(truthLines.compactMap { $0 }, size: size - 1)) + 4.5
            widened = true
        }
        let tallest = items.indices.map { index -> Double in
            var height = CairoCanvas.blockHeight(lines: predictionLines[index].count, size: size) + 3
            if items[index].confidence != nil { height += 14 }
            if let lines = truthLines[index] { height += CairoCanvas.blockHeight(lines: lines.count, size: size - 1) }
            return height
        }.max() ?? 0
        return CaptionLayout(size: size, cellWidth: cellWidth, predictionLines: predictionLines, truthLines: truthLines,
                             height: max(hasTruth ? 50 : 34, tallest + 6))
    }

    private var captions: CaptionLayout? {
        (try? CairoCanvas(width: 100, height: 10, scale: 1)).map(captionLayout)
    }

    /// Size follows from the cell size, columns and rows.
    public var size: ChartSize {
        let captions = self.captions
        let cellWidth = captions?.cellWidth ?? max(cellSize, 104) + 12
        let captionHeight = captions?.height ?? 50
        let width = max(320, 2 * ChartStyle.margin + Double(columns) * cellWidth)
        return ChartSize(width: width, height: 70 + Double(max(rows, 1)) * (cellSize + captionHeight + 14) + ChartStyle.margin
            + ChartFrame.extraHeaderHeight(title: title, subtitle: accuracyText, width: width))
    }

    /// Accuracy line and one line per image.
    public var textSummary: String {
        var lines = [title + (accuracyText.map { " (\($0))" } ?? "")]
        for (index, item) in items.enumerated() {
            var line = "\(index + 1). \(item.prediction)"
            if let confidence = item.confidence { line += " \(NumberText.percent(confidence))" }
            if let correct = item.isCorrect { line += correct ? " ✓" : " ✗ (true: \(item.truth ?? ""))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private var accuracyText: String? {
        let judged = items.compactMap(\.isCorrect)
        guard !judged.isEmpty else { return nil }
        let right = judged.filter { $0 }.count
        return "\(right) of \(judged.count) correct"
    }

    /// Renders the grid as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard !items.isEmpty else { throw ChartError.invalidData("the grid has no images") }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    private func draw(on canvas: CairoCanvas) {
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: accuracyText)
        let captions = captionLayout(on: canvas)
        let cellWidth = captions.cellWidth
        let gridWidth = Double(columns) * cellWidth
        let captionHeight = captions.height
        let left = body.minX + max(0, (body.width - gridWidth) / 2)
        for (index, item) in items.enumerated() {
            let column = index % columns, row = index / columns
            let cellX = left + Double(column) * cellWidth
            let cellY = body.minY + Double(row) * (cellSize + captionHeight + 14)
            // Fit the image in a square, keeping its aspect ratio.
            let aspect = Double(item.image.width) / Double(item.image.height)
            let w = aspect >= 1 ? cellSize : cellSize * aspect
            let h = aspect >= 1 ? cellSize / aspect : cellSize
            let frame = ChartRect(x: cellX + (cellWidth - w) / 2, y: cellY + (cellSize - h) / 2, width: w, height: h)
            canvas.draw(item.image, in: frame)
            let color: ChartColor
            switch item.isCorrect {
            case .some(true): color = .correct
            case .some(false): color = .wrong
            case .none: color = .axis
            }
            canvas.stroke(ChartRect(x: frame.x - 1.5, y: frame.y - 1.5, width: frame.width + 3, height: frame.height + 3),
                          color, lineWidth: item.isCorrect == nil ? 1 : 3)
            // Line 1: the prediction (with ✓ or ✗ so colour is not the only cue);
            // line 2: confidence; line 3 when wrong: the true label.
            let captionTop = cellY + cellSize + 8
            let center = cellX + cellWidth / 2
            let textColor: ChartColor = item.isCorrect == false ? .wrong : (item.isCorrect == true ? .correct : .text)
            let predictionLines = captions.predictionLines[index]
            canvas.text(lines: predictionLines, at: ChartPoint(x: center, y: captionTop), size: captions.size, color: textColor,
                        weight: .bold, horizontal: .center, vertical: .top)
            var lineTop = captionTop + CairoCanvas.blockHeight(lines: predictionLines.count, size: captions.size) + 3
            if let confidence = item.confidence {
                canvas.text(NumberText.percent(confidence), at: ChartPoint(x: center, y: lineTop), size: 10.5,
                            color: .text, horizontal: .center, vertical: .top)
                lineTop += 14
            }
            if let truthLines = captions.truthLines[index] {
                canvas.text(lines: truthLines, at: ChartPoint(x: center, y: lineTop), size: captions.size - 1,
                            color: .secondaryText, horizontal: .center, vertical: .top)
            }
        }
    }
}
