import Foundation
public import JSONCore
internal import GeneratedNames

/// What a value looks like in a notebook: one representation per MIME type.
///
/// Jupyter front ends pick the richest type they can render (`image/png` over
/// `text/html` over `text/markdown` over `text/plain`). Every bundle should carry
/// `text/plain` so a console client still shows something.
public struct MimeBundle: Sendable, Equatable {
    /// Representations keyed by MIME type. Binary types (`image/png`) are base64 text.
    public var data: [String: String]
    /// Pixel size of the `image/png` representation, sent as display metadata.
    public var imageSize: (width: Int, height: Int)?
    /// Representations that are JSON documents rather than text (a widget's
    /// `application/vnd.jupyter.widget-view+json`), keyed by MIME type.
    public var jsonData: [String: JSONValue] = [:]

    /// Creates a bundle with a plain-text representation only.
    /// - Parameter plainText: the `text/plain` representation.
    public init(plainText: String) {
        self.data = ["text/plain": plainText]
        self.imageSize = nil
    }

    /// Creates a bundle from a PNG image and its plain-text stand-in.
    /// - Parameters:
    ///   - png: the encoded PNG file.
    ///   - width: image width in pixels.
    ///   - height: image height in pixels.
    ///   - plainText: what a text-only client shows instead.
    public init(png: Data, width: Int, height: Int, plainText: String) {
        self.data = ["image/png": png.base64EncodedString(), "text/plain": plainText]
        self.imageSize = (width, height)
    }

    /// Returns a copy with one more representation.
    /// - Parameters:
    ///   - mimeType: for example `text/html` or `text/markdown`.
    ///   - value: the representation as text.
    public func adding(_ mimeType: String, _ value: String) -> MimeBundle {
        var copy = self
        copy.data[mimeType] = value
        return copy
    }

    /// Returns a copy with one more representation that is a JSON document.
    /// - Parameters:
    ///   - mimeType: for example `application/vnd.jupyter.widget-view+json`.
    ///   - json: the document.
    public func adding(_ mimeType: String, json: JSONValue) -> MimeBundle {
        var copy = self
        copy.jsonData[mimeType] = json
        return copy
    }

    public static func == (lhs: MimeBundle, rhs: MimeBundle) -> Bool {
        lhs.data == rhs.data && lhs.jsonData == rhs.jsonData && lhs.imageSize?.width == rhs.imageSize?.width
            && lhs.imageSize?.height == rhs.imageSize?.height
    }
}

/// A value that knows how to show itself in a notebook.
///
/// Adopt it to make `display(_:)` and a cell's last expression show something richer
/// than `description`: a chart as PNG, a table as HTML, a tensor as text.
public protocol NotebookDisplayable {
    /// The representations of this value, richest first in the front end's judgement.
    var mimeBundle: MimeBundle { get }
}

/// Returns the bundle a value shows in a notebook: its own when it adopts
/// ``NotebookDisplayable``, otherwise its `description` as `text/plain`.
/// - Parameter value: any value.
public func mimeBundle(of value: Any) -> MimeBundle {
    if let displayable = value as? NotebookDisplayable { return displayable.mimeBundle }
    return MimeBundle(plainText: userFacingDescription(value))
}

/// `String(describing:)` with the kernel's generated module names (`Cell12.`) removed,
/// so a user never sees them.
func userFacingDescription(_ value: Any) -> String {
    removingCellModuleNames(String(describing: value))
}

/// Removes the kernel's generated names (`Cell12.` qualifiers that Swift prints for types
/// declared in notebook cells) from text a user will read.
/// - Parameter text: text that may name cell types.
public func removingCellModuleNames(_ text: String) -> String {
    NameScrubber.userFacing(text)
}

extension MimeBundle: NotebookDisplayable {
    /// A bundle shows itself as it is.
    public var mimeBundle: MimeBundle { self }
}
