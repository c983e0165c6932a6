import BenchbookRuntime
import Foundation

/// A model's file, format, runtime settings, inputs and outputs, as shown in a notebook.
public struct ModelDescription: Sendable, CustomStringConvertible, NotebookDisplayable {
    /// The model file.
    public var path: String
    /// The file format.
    public var format: ModelFormat
    /// The inputs, in call order.
    public var inputs: [TensorDescription]
    /// The outputs, in result order.
    public var outputs: [TensorDescription]
    /// The CPU thread count.
    public var threads: Int
    /// libtorch's quantised engine; `nil` for TensorFlow Lite.
    public var quantizedEngine: String?
    /// Class labels recorded in the file.
    public var labels: [String]?

    /// A plain-text rendering.
    public var description: String {
        var lines = ["\((path as NSString).lastPathComponent): \(format) on \(format.runtimeName), \(threads) thread(s)"
            + (quantizedEngine.map { ", quantised engine \($0)" } ?? "")]
        lines += inputs.map { "  input  \($0)" }
        lines += outputs.map { "  output \($0)" }
        if let labels { lines.append("  labels " + labels.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }

    /// Plain text and an HTML table for the notebook.
    public var mimeBundle: MimeBundle {
        var html = "<table><caption>\(HTML.escape((path as NSString).lastPathComponent)) — \(format), "
            + "\(HTML.escape(format.runtimeName)), \(threads) thread(s)"
            + (quantizedEngine.map { ", quantised engine \(HTML.escape($0))" } ?? "") + "</caption>"
            + "<tr><th></th><th>name</th><th>shape</th><th>type</th><th>quantisation</th></tr>"
        for (role, tensors) in [("input", inputs), ("output", outputs)] {
            for tensor in tensors {
                html += "<tr><td>\(role)</td><td>\(HTML.escape(tensor.name ?? "—"))</td>"
                    + "<td>\(tensor.shape.map(ModelError.shapeText) ?? "unknown")</td>"
                    + "<td>\(tensor.elementType?.rawValue ?? "unknown")</td>"
                    + "<td>\(tensor.quantization?.description ?? "—")</td></tr>"
            }
        }
        html += "</table>"
        return MimeBundle(plainText: description).adding("text/html", html)
    }
}

extension Model: NotebookDisplayable, CustomStringConvertible {
    /// The model's ``summary`` as text.
    public var description: String { summary.description }
    /// The model's ``summary`` as a table.
    public var mimeBundle: MimeBundle { summary.mimeBundle }
}

/// Escaping for the HTML the result types show.
enum HTML {
    /// Replaces the characters HTML gives meaning to.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
