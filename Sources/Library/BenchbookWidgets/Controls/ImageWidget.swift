import Foundation
public import JSONCore

/// An image (ipywidgets' `Image`): PNG bytes sent to the front end as a binary buffer, so
/// replacing the picture costs no base64 and no new output.
///
/// Named `ImageWidget` because `Image` is the notebook library's image type.
public final class ImageWidget: Control, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "value"

    /// Creates and opens an image widget.
    /// - Parameters:
    ///   - png: the encoded PNG file.
    ///   - width: the CSS width it is drawn at (`"168"` pixels, `"50%"`), empty for its own.
    ///   - height: the CSS height, empty for its own.
    public init(png: Data = Data(), width: String = "", height: String = "") {
        super.init(kind: "ImageWidget", name: .control("Image"), state: [
            "format": "png", "width": .string(width), "height": .string(height),
        ], binary: ["value": [UInt8](png)])
    }

    /// The PNG file shown.
    public var value: Data {
        get { Data(bytes("value")) }
        set { setBytes("value", [UInt8](newValue)) }
    }

    override var describedAttributes: [String] { ["format", "width", "height"] }

    public override var description: String { "ImageWidget(\(bytes("value").count) bytes of PNG)" }
}
