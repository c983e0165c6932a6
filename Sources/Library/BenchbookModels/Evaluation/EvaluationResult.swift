import BenchbookRuntime
import Foundation

/// How a classifier did on a labelled test set: accuracy, a confusion matrix, and each image's
/// answer (so two models scored on the same images can be compared image by image:
/// ``PairedAccuracyComparison``).
public struct EvaluationResult: Sendable, CustomStringConvertible, NotebookDisplayable {
    /// The model file evaluated.
    public var modelPath: String
    /// Class names, in label order.
    public var classNames: [String]
    /// `confusion[true][predicted]`: how many images of class `true` were predicted as `predicted`.
    public var confusion: [[Int]]
    /// Wall time of the evaluation in seconds.
    public var seconds: Double
    /// Images per model call.
    public var batchSize: Int
    /// The class each image was given (its top-1 answer), in the order of the images; empty
    /// when the result was built from counts alone.
    public var predictions: [Int] = []
    /// The true class of each image, in the same order as ``predictions``.
    public var labels: [Int] = []

    /// The number of images evaluated.
    public var count: Int { confusion.reduce(0) { $0 + $1.reduce(0, +) } }
    /// The number predicted correctly.
    public var correct: Int { confusion.indices.reduce(0) { $0 + confusion[$1][$1] } }
    /// The fraction predicted correctly, 0 when nothing was evaluated.
    public var accuracy: Double { count == 0 ? 0 : Double(correct) / Double(count) }

    /// Accuracy per class (recall): correct predictions of each true class over its images.
    public var classAccuracy: [Double] {
        confusion.indices.map { row in
            let total = confusion[row].reduce(0, +)
            return total == 0 ? 0 : Double(confusion[row][row]) / Double(total)
        }
    }

    /// A plain-text rendering.
    public var description: String {
        let name = (modelPath as NSString).lastPathComponent
        var lines = [String(format: "%@: accuracy %.2f %% (%d of %d), %.1f s, batch %d",
                            name, accuracy * 100, correct, count, seconds, batchSize)]
        let width = max(6, (classNames.map(\.count).max() ?? 0))
        lines.append("true \\ predicted".padding(toLength: width + 2, withPad: " ", startingAt: 0)
            + confusion.indices.map { String(format: "%6d", $0) }.joined())
        for (row, counts) in confusion.enumerated() {
            let label = row < classNames.count ? classNames[row] : String(row)
            lines.append(label.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                + counts.map { String(format: "%6d", $0) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    /// Plain text and an HTML table for the notebook.
    public var mimeBundle: MimeBundle {
        let name = HTML.escape((modelPath as NSString).lastPathComponent)
        var html = String(format: "<p><b>%@</b>: accuracy %.2f %% (%d of %d images), %.1f s</p>",
                          name, accuracy * 100, correct, count, seconds)
        html += "<table><tr><th>true \\ predicted</th>"
        html += confusion.indices.map { "<th>\(HTML.escape(label($0)))</th>" }.joined() + "</tr>"
        let largest = max(1, confusion.flatMap { $0 }.max() ?? 1)
        for (row, counts) in confusion.enumerated() {
            html += "<tr><th>\(HTML.escape(label(row)))</th>"
            for value in counts {
                let shade = 255 - Int(Double(value) / Double(largest) * 160)
                html += "<td style=\"background:rgb(\(shade),\(shade),255);text-align:right\">\(value)</td>"
            }
            html += "</tr>"
        }
        html += "</table>"
        return MimeBundle(plainText: description).adding("text/html", html)
    }

    private func label(_ index: Int) -> String { index < classNames.count ? classNames[index] : String(index) }
}
