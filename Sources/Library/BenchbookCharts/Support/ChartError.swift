/// Why a chart could not be drawn or an image read.
public enum ChartError: Error, CustomStringConvertible, Equatable {
    /// The data does not fit the chart (for example labels and values of different lengths).
    case invalidData(String)
    /// The size is zero, negative or too large.
    case invalidSize(width: Double, height: Double, scale: Double)
    /// Pixel data has the wrong length for its size and channel count.
    case invalidPixels(expected: Int, actual: Int)
    /// Bytes that are not a PNG file.
    case notPNG(String)
    /// cairo reported a failure.
    case drawingFailed(String)
    /// A chart file could not be written.
    case unwritableFile(path: String, reason: String)

    /// What went wrong and what to do next.
    public var description: String {
        switch self {
        case .invalidData(let detail):
            return "The chart's data is inconsistent: \(detail). Check that every value has a label and counts match."
        case .invalidSize(let width, let height, let scale):
            return "A chart of \(width) × \(height) points at scale \(scale) cannot be drawn; use a positive size under 8000 points."
        case .invalidPixels(let expected, let actual):
            return "The pixel buffer has \(actual) bytes but width × height × channels is \(expected); pass the image's real size and channel count."
        case .notPNG(let detail):
            return "The data is not a readable PNG (\(detail)); pass the bytes of a .png file."
        case .drawingFailed(let detail):
            return "cairo could not draw the chart (\(detail)); check that libcairo2 is installed (scripts/apt-packages.txt)."
        case .unwritableFile(let path, let reason):
            return "Cannot write \(path) (\(reason)); check that the directory exists and is writable."
        }
    }
}
