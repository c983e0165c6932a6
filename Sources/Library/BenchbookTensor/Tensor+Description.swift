import Foundation
import BenchbookRuntime

extension Tensor: CustomStringConvertible {
    /// NumPy-style text: the values nested by axis, with only the first and last three
    /// items of each axis when there are more than 1,000 elements, then shape and type.
    public var description: String {
        let values = floats
        let summarise = scalarCount > 1000
        var text = ""
        if shape.isEmpty {
            text = values.first.map { Self.format($0, type: elementType) } ?? "[]"
        } else {
            text = Self.render(values, shape: shape, strides: Self.strides(of: shape), axis: 0, offset: 0,
                               summarise: summarise, type: elementType, indent: 1)
        }
        var suffix = "shape=\(shape), dtype=\(elementType.rawValue)"
        if let layout { suffix += ", layout=\(layout.rawValue)" }
        return "tensor(\(text), \(suffix))"
    }

    private static func render(_ values: [Float], shape: [Int], strides: [Int], axis: Int, offset: Int,
                               summarise: Bool, type: ElementType, indent: Int) -> String {
        let count = shape[axis]
        let edge = 3
        let shown: [Int?] = summarise && count > 2 * edge
            ? Array(0..<edge) + [nil] + Array(count - edge..<count)
            : Array(0..<count)
        if axis == shape.count - 1 {
            let items = shown.map { $0.map { format(values[offset + $0 * strides[axis]], type: type) } ?? "..." }
            return "[" + items.joined(separator: ", ") + "]"
        }
        let separator = "," + String(repeating: "\n", count: shape.count - axis - 1) + String(repeating: " ", count: indent + 7)
        let items = shown.map { index in
            index.map { render(values, shape: shape, strides: strides, axis: axis + 1, offset: offset + $0 * strides[axis],
                               summarise: summarise, type: type, indent: indent + 1) } ?? "..."
        }
        return "[" + items.joined(separator: separator) + "]"
    }

    private static func format(_ value: Float, type: ElementType) -> String {
        guard type == .float32 else { return String(Int64(value)) }
        if value == value.rounded() && abs(value) < 1e7 { return String(format4: value) }
        return String(format4: value)
    }
}

extension String {
    /// Four significant decimals like NumPy's default print (`0.4850`, `-1.2e+04`).
    init(format4 value: Float) {
        if value.isNaN { self = "nan"; return }
        if value.isInfinite { self = value > 0 ? "inf" : "-inf"; return }
        let magnitude = abs(value)
        if magnitude != 0 && (magnitude >= 1e8 || magnitude < 1e-4) {
            self = String(describing: value)
            return
        }
        var text = String(Double((Double(value) * 10000).rounded()) / 10000)
        if text.hasSuffix(".0") { text.removeLast() }
        self = text
    }
}

extension Tensor: NotebookDisplayable {
    /// The NumPy-style text, plus HTML: a table for a small vector or matrix (at most 12x12,
    /// after dropping leading axes of size 1), otherwise the text in a `<pre>` block under
    /// a shape and type caption.
    public var mimeBundle: MimeBundle {
        MimeBundle(plainText: description).adding("text/html", html)
    }

    /// The HTML representation described in ``mimeBundle``.
    var html: String {
        let caption = "<b>\(elementType.rawValue)</b> tensor, shape \(shape)" + (layout.map { ", \($0.rawValue)" } ?? "")
        var axes = shape
        while axes.count > 2, axes.first == 1 { axes.removeFirst() }
        if axes.count == 2 && axes[0] == 1 { axes.removeFirst() }
        let values = floats
        guard axes.count <= 2, let columns = axes.last, columns <= 12, (axes.first ?? 1) <= 12, !values.isEmpty else {
            let escaped = description.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            return "<div>\(caption)</div><pre>\(escaped)</pre>"
        }
        let rows = axes.count == 2 ? axes[0] : 1
        var table = "<table><caption>\(caption)</caption>"
        for row in 0..<rows {
            table += "<tr>" + (0..<columns).map { "<td>\(Self.htmlNumber(values[row * columns + $0], type: elementType))</td>" }.joined() + "</tr>"
        }
        return table + "</table>"
    }

    private static func htmlNumber(_ value: Float, type: ElementType) -> String {
        type == .float32 ? String(format4: value) : String(Int64(value))
    }
}
