import BenchbookRuntime
import Foundation

extension Image: CustomStringConvertible {
    /// A one-line summary, for example `Image(224x224, rgb)`.
    public var description: String { "Image(\(width)x\(height), \(format))" }
}

extension Image: NotebookDisplayable {
    /// The image as inline PNG, with its summary as plain text.
    public var mimeBundle: MimeBundle {
        guard let png = try? pngData(compressionLevel: 1) else { return MimeBundle(plainText: description) }
        return MimeBundle(png: png, width: width, height: height, plainText: description)
    }
}
