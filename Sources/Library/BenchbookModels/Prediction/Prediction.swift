import BenchbookRuntime
import BenchbookTensor
import Foundation

/// A classifier's answer for one image: class probabilities, best first.
public struct Prediction: Sendable, CustomStringConvertible, NotebookDisplayable {
    /// One class and its probability.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// The class index in the model's label order.
        public var index: Int
        /// The class name, or the index as text when the model has no labels.
        public var label: String
        /// The softmax probability.
        public var probability: Double

        /// The label and the probability as a percentage, for example `tabby 41.2 %`.
        public var description: String { String(format: "%@ %.1f %%", label, probability * 100) }
    }

    /// Every class, most probable first.
    public var ranked: [Entry]
    /// The raw scores the model returned (dequantised for int8 outputs).
    public var logits: [Float]

    /// The most probable class.
    public var top: Entry { ranked[0] }

    /// Every class's probability in class (label) order, as the charts take them.
    public var probabilities: [Double] { ranked.sorted { $0.index < $1.index }.map(\.probability) }

    /// Every class's name in class order.
    public var labels: [String] { ranked.sorted { $0.index < $1.index }.map(\.label) }

    /// The `k` most probable classes.
    /// - Parameter k: how many to return.
    public func top(_ k: Int) -> [Entry] { Array(ranked.prefix(max(0, k))) }

    /// Ranks scores by softmax probability.
    /// - Parameters:
    ///   - logits: one score per class.
    ///   - labels: class names in index order.
    public init(logits: [Float], labels: [String]) {
        self.logits = logits
        let largest = logits.max() ?? 0
        let exponentials = logits.map { Foundation.exp(Double($0 - largest)) }
        let sum = exponentials.reduce(0, +)
        ranked = exponentials.enumerated().map { index, value in
            Entry(index: index, label: index < labels.count ? labels[index] : String(index),
                  probability: sum > 0 ? value / sum : 0)
        }.sorted { $0.probability > $1.probability || ($0.probability == $1.probability && $0.index < $1.index) }
    }

    /// A plain-text rendering.
    public var description: String {
        top(5).map(\.description).joined(separator: ", ")
    }

    /// Plain text and an HTML table for the notebook.
    public var mimeBundle: MimeBundle {
        var html = "<table><tr><th>class</th><th>probability</th><th></th></tr>"
        for entry in top(5) {
            let width = Int(entry.probability * 200)
            html += String(format: "<tr><td>%@</td><td style=\"text-align:right\">%.1f %%</td>", HTML.escape(entry.label),
                           entry.probability * 100)
                + "<td><div style=\"background:#4a7bd0;height:0.8em;width:\(width)px\"></div></td></tr>"
        }
        return MimeBundle(plainText: description).adding("text/html", html + "</table>")
    }
}

extension Model {
    /// Classifies one input and ranks the classes.
    ///
    /// Quantised outputs are dequantised with the output's parameters before the softmax.
    /// - Parameters:
    ///   - input: one image tensor in the model's input shape (batch of 1).
    ///   - labels: class names; defaults to the model's own labels.
    /// - Returns: the classes by probability.
    /// - Throws: ``ModelError`` when the input does not fit or the run fails.
    public func classify(_ input: Tensor, labels: [String]? = nil) throws(ModelError) -> Prediction {
        let output = try run(input)
        var scores = output.floats
        if let q = outputs.first?.quantization, output.elementType != .float32 {
            scores = scores.map { q.scale * ($0 - Float(q.zeroPoint)) }
        }
        return Prediction(logits: scores, labels: labels ?? self.labels ?? [])
    }
}
