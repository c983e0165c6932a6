/// Why an image could not be decoded, encoded or transformed.
///
/// Every case's description says what went wrong, where, and what to do next.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a PNG or JPEG file.
    case unsupportedFormat(String)
    /// The file is a PNG or JPEG but is damaged or cut short; `format` names which, `reason`
    /// is the decoder's message.
    case corruptFile(format: String, reason: String)
    /// The file declares more pixels than the decoder's limit.
    case tooLarge(String)
    /// The file could not be read from disk.
    case unreadableFile(path: String, reason: String)
    /// An image with no pixels was requested or produced.
    case emptyImage(String)
    /// The number of samples does not fit the size and format.
    case sampleCountMismatch(expected: Int, actual: Int)
    /// A crop box reaches outside the image.
    case cropOutsideImage(box: Box, size: Size)
    /// A pixel coordinate is outside the image.
    case pixelOutOfBounds(x: Int, y: Int, size: Size)
    /// A size or parameter is not usable, for example a resize to zero pixels.
    case invalidArgument(String)
    /// The operation needs a different pixel format.
    case unsupportedPixelFormat(operation: String, format: PixelFormat)
    /// An encoder failed.
    case encodingFailed(String)

    /// What went wrong and what to do next.
    public var description: String {
        switch self {
        case .unsupportedFormat(let detail):
            "Unsupported image format: \(detail). Only PNG and JPEG files can be decoded; convert the file first."
        case .corruptFile(let format, let reason):
            "Corrupt or truncated \(format) file: \(reason). Re-download or re-export the file."
        case .tooLarge(let detail):
            "Image too large: \(detail). Pass a larger `maxPixelCount`, or use a JPEG `draftSize` to decode it smaller."
        case .unreadableFile(let path, let reason):
            "Cannot read \(path): \(reason). Check the path and permissions."
        case .emptyImage(let detail):
            "Empty image: \(detail). Images need at least 1x1 pixel."
        case .sampleCountMismatch(let expected, let actual):
            "Wrong number of samples: expected \(expected) (width x height x channels) but got \(actual)."
        case .cropOutsideImage(let box, let size):
            "Crop box \(box) reaches outside the \(size) image. Keep 0 <= left < right <= \(size.width) and 0 <= top < bottom <= \(size.height), or pad the image first."
        case .pixelOutOfBounds(let x, let y, let size):
            "Pixel (\(x), \(y)) is outside the \(size) image."
        case .invalidArgument(let detail):
            "Invalid argument: \(detail)."
        case .unsupportedPixelFormat(let operation, let format):
            "\(operation) does not support \(format) images. Convert with `converted(to:)` first."
        case .encodingFailed(let detail):
            "Encoding failed: \(detail)."
        }
    }
}
