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
    /// What the file says about itself, for example that its weights are untrained.
    public var note: String?
    /// Which thread pool the work runs on.
    public var threading: String?

    /// A plain-text rendering.
    public var description: String {
        var lines = ["\((path as NSString).lastPathComponent): \(format) on \(format.runtimeName), \(threads) thread(s)"
            + (threading.map { " (\($0))" } ?? "") + (quantizedEngine.map { ", quantised engine \($0)" } ?? "")]
        if let note { lines.append("  note   \(note)") }
        lines += inputs.map { "  input  \($0)" }
        lines += outputs.map { "  output \($0)" }
        if let labels { lines.append("  labels " + Self.labelSummary(labels)) }
        return lines.joined(separator: "\n")
    }

    /// All labels when there are few; the first and last few and the count otherwise.
    static func labelSummary(_ labels: [String]) -> String {
        guard labels.count > 12 else { return labels.joined(separator: ", ") }
        return labels.prefix(5).joined(separator: ", ") + ", … " + labels.suffix(3).joined(separator: ", ")
            + " (\(labels.count) classes)"
    }

    /// Plain text and an HTML table for the notebook.
    public var mimeBundle: MimeBundle {
        var html = "<table><caption>\(HTML.escape((path as NSString).lastPathComponent)) — \(format), "
            + "\(HTML.escape(format.runtimeName)), \(threads) thread(s)"
            + (threading.map { " (\(HTML.escape($0)))" } ?? "")
            + (quantizedEngine.map { ", quantised engine \(HTML.escape($0))" } ?? "")
            + (note.map { "<br><i>\(HTML.escape($0))</i>" } ?? "") + "</caption>"
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
        if let labels { html += "<p>labels: \(HTML.escape(Self.labelSummary(labels)))</p>" }
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
