import BenchbookRuntime
import Foundation

extension Image: CustomStringConvertible {
    /// A one-line summary, for example `Image(224x224, rgb)`.
    public var description: String { "Image(\(width)x\(height), \(format))" }
}

extension Image: NotebookDisplayable {
    /// The image as inline PNG, with its summary as plain text. Small images (a 28x28
    /// Fashion-MNIST item) are shown enlarged by a whole factor with nearest neighbour, so
    /// each pixel stays a crisp square; the text still gives the real size.
    public var mimeBundle: MimeBundle {
        let shown = displayEnlargement()
        guard let png = try? shown.pngData(compressionLevel: 1) else { return MimeBundle(plainText: description) }
        return MimeBundle(png: png, width: shown.width, height: shown.height, plainText: description)
    }

    /// The whole factor (1...8) that brings the longer side to at least 160 pixels.
    var displayScale: Int { max(1, min(8, 160 / max(width, height))) }

    /// This image enlarged by ``displayScale`` with nearest neighbour.
    func displayEnlargement() -> Image {
        let scale = displayScale
        guard scale > 1, let enlarged = try? resized(width: width * scale, height: height * scale, filter: .nearest) else {
            return self
        }
        return enlarged
    }
}
