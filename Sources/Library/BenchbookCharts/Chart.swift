import BenchbookRuntime
import Foundation

/// A chart drawn with cairo and shown in a notebook as an inline PNG.
///
/// Every chart has a title, a size in points and a text stand-in for clients that cannot
/// show images. `display(chart)` or a chart as a cell's last expression shows it; `pngData()`
/// gives the file.
public protocol Chart: NotebookDisplayable, Sendable {
    /// The title drawn above the chart.
    var title: String { get }
    /// Size in points (the notebook shows the PNG at this size).
    var size: ChartSize { get }
    /// What a text-only client shows instead of the image.
    var textSummary: String { get }
    /// Renders the chart as PNG bytes.
    /// - Parameter scale: pixels per point; 2 is sharp on high-density screens.
    /// - Throws: ``ChartError``.
    func pngData(scale: Double) throws -> Data
}

extension Chart {
    /// The chart as `image/png` at scale 2 (shown at its point size) plus ``textSummary``;
    /// only the text when drawing fails, with the reason.
    public var mimeBundle: MimeBundle {
        do {
            let png = try pngData(scale: 2)
            return MimeBundle(png: png, width: Int(size.width.rounded()), height: Int(size.height.rounded()),
                              plainText: textSummary)
        } catch {
            return MimeBundle(plainText: "\(textSummary)\n(chart not drawn: \(error))")
        }
    }

    /// Renders the chart and decodes it to pixels (for tests and comparisons).
    /// - Parameter scale: pixels per point.
    public func image(scale: Double = 1) throws -> ChartImage {
        try ChartImage(pngData: pngData(scale: scale))
    }

    /// Writes the chart as a PNG file, creating the directory if needed.
    /// - Parameters:
    ///   - path: the file to write, for example `results/latency.png`.
    ///   - scale: pixels per point.
    /// - Throws: ``ChartError``.
    public func write(to path: String, scale: Double = 2) throws {
        let url = URL(fileURLWithPath: path)
        let data = try pngData(scale: scale)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw ChartError.unwritableFile(path: path, reason: error.localizedDescription)
        }
    }
}

/// Creates a canvas, runs the drawing and encodes the PNG.
enum ChartRenderer {
    /// Where drawn text goes while a test renders a chart (see ``TextRecorder``).
    @TaskLocal static var textRecorder: TextRecorder?

    static func png(size: ChartSize, scale: Double, draw: (CairoCanvas) throws -> Void) throws -> Data {
        guard scale > 0, scale.isFinite else {
            throw ChartError.invalidSize(width: size.width, height: size.height, scale: scale)
        }
        let canvas = try CairoCanvas(width: size.width, height: size.height, scale: scale)
        try draw(canvas)
        return try canvas.pngData()
    }
}

/// Collects every string a chart draws, so a test can check that no label was cut.
final class TextRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []

    func record(_ text: String) {
        lock.lock()
        texts.append(text)
        lock.unlock()
    }

    /// The strings drawn so far, in drawing order.
    var drawn: [String] {
        lock.lock()
        defer { lock.unlock() }
        return texts
    }

    /// The strings `chart` draws.
    static func texts(of chart: some Chart) throws -> [String] {
        let recorder = TextRecorder()
        try ChartRenderer.$textRecorder.withValue(recorder) { _ = try chart.pngData(scale: 1) }
        return recorder.drawn
    }
}
