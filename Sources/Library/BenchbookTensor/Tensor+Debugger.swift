import BenchbookRuntime
import Foundation

extension Tensor: DebuggerInspectable {
    /// What the debugger's rich view shows: element type, shape and layout, then the
    /// statistics of the values (count, min, max, mean, standard deviation, NaNs), then
    /// the tensor's notebook display.
    public var debuggerBundle: MimeBundle {
        let values = floats
        let finite = values.filter(\.isFinite).map(Double.init)
        let nanCount = values.count(where: \.isNaN)
        var lines = ["\(elementType.rawValue) tensor, shape \(shape)" + (layout.map { ", \($0.rawValue)" } ?? ""),
                     "elements: \(values.count)"]
        if let low = finite.min(), let high = finite.max() {
            let mean = finite.reduce(0, +) / Double(finite.count)
            let variance = finite.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(finite.count)
            lines += ["min: \(String(format4: Float(low)))", "max: \(String(format4: Float(high)))",
                      "mean: \(String(format4: Float(mean)))", "std: \(String(format4: Float(variance.squareRoot())))"]
        }
        if nanCount > 0 { lines.append("NaN: \(nanCount)") }
        let summary = lines.joined(separator: "\n")
        let rows = lines.map { line -> String in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 ? "<tr><th>\(parts[0])</th><td>\(parts[1])</td></tr>" : "<tr><td colspan=\"2\"><b>\(line)</b></td></tr>"
        }.joined()
        return MimeBundle(plainText: summary + "\n\n" + description)
            .adding("text/html", "<table>\(rows)</table>" + mimeBundle.data["text/html", default: ""])
    }
}
