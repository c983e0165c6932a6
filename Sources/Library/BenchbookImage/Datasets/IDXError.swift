/// Why a dataset file could not be read.
public enum IDXError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened.
    case unreadable(path: String, reason: String)
    /// The file's bytes are not a valid (gzip-compressed) IDX file.
    case corrupt(path: String, reason: String)
    /// The file holds a different shape than expected.
    case unexpectedShape(path: String, found: [Int], expected: String)
    /// An image index outside the split.
    case indexOutOfRange(index: Int, count: Int)

    /// What went wrong and what to do next.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "Cannot read \(path): \(reason). Install Debian's dataset-fashion-mnist (`apt-get install dataset-fashion-mnist`) or pass the folder holding the files."
        case .corrupt(let path, let reason):
            "\(path) is not a valid IDX file: \(reason). Reinstall the dataset package."
        case .unexpectedShape(let path, let found, let expected):
            "\(path) holds shape \(found) but \(expected) was expected; check that images and labels come from the same split."
        case .indexOutOfRange(let index, let count):
            "Image index \(index) is outside 0..<\(count)."
        }
    }
}
