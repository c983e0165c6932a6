internal import CImageCodecs
import BenchbookTensor
import Foundation

/// Fashion-MNIST (Zalando): 28x28 gray clothing images, light items on black, ten classes.
///
/// Reads Debian's `dataset-fashion-mnist` files (`*-idx3-ubyte.gz`, `*-idx1-ubyte.gz`)
/// directly, inflating them with zlib.
///
/// ```swift
/// let test = try FashionMNIST(split: .test)
/// test.count                         // 10000
/// test.className(at: 0)              // "Ankle boot"
/// try test.image(at: 0).tensor(normalization: .unit)   // [1, 1, 28, 28]
/// ```
public struct FashionMNIST: Sendable {
    /// Which file pair to read.
    public enum Split: String, Sendable {
        /// 60,000 training images (`train-*`).
        case train
        /// 10,000 test images (`t10k-*`).
        case test

        var filePrefix: String { self == .train ? "train" : "t10k" }
    }

    /// The class names in label order 0...9, as the dataset defines them.
    public static let classNames = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                    "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
    /// Where Debian installs the files.
    public static let defaultDirectory = "/usr/share/datasets/fashion-mnist"
    /// Image width and height.
    public static let side = 28

    /// All images' samples, `count * 28 * 28` bytes, image after image, row-major.
    public let pixels: [UInt8]
    /// The label (0...9) of each image.
    public let labels: [UInt8]

    /// The number of images.
    public var count: Int { labels.count }

    /// Reads one split.
    /// - Parameters:
    ///   - split: ``Split/train`` or ``Split/test``.
    ///   - directory: the folder holding the four `.gz` files.
    /// - Throws: ``IDXError`` when a file is missing, corrupt, or the two files disagree.
    public init(split: Split, directory: String = FashionMNIST.defaultDirectory) throws(IDXError) {
        let imagesPath = "\(directory)/\(split.filePrefix)-images-idx3-ubyte.gz"
        let labelsPath = "\(directory)/\(split.filePrefix)-labels-idx1-ubyte.gz"
        let images = try IDXFile(contentsOfFile: imagesPath)
        let labels = try IDXFile(contentsOfFile: labelsPath)
        guard images.dimensions.count == 3, images.dimensions[1] == Self.side, images.dimensions[2] == Self.side else {
            throw .unexpectedShape(path: imagesPath, found: images.dimensions, expected: "[count, 28, 28]")
        }
        guard labels.dimensions.count == 1, labels.dimensions[0] == images.dimensions[0] else {
            throw .unexpectedShape(path: labelsPath, found: labels.dimensions, expected: "[\(images.dimensions[0])] (one label per image)")
        }
        if let bad = labels.bytes.first(where: { $0 > 9 }) {
            throw .corrupt(path: labelsPath, reason: "label \(bad) is outside 0...9")
        }
        pixels = images.bytes
        self.labels = labels.bytes
    }

    /// One image as a 28x28 ``PixelFormat/gray`` image.
    /// - Parameter index: `0..<count`.
    /// - Throws: ``IDXError/indexOutOfRange(index:count:)`` outside the split.
    public func image(at index: Int) throws(IDXError) -> Image {
        guard (0..<count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
        let area = Self.side * Self.side
        return Image(uncheckedWidth: Self.side, height: Self.side, format: .gray,
                     pixels: Array(pixels[index * area..<(index + 1) * area]))
    }

    /// The class name of one image, for example `"Ankle boot"`.
    /// - Parameter index: `0..<count`.
    /// - Throws: ``IDXError/indexOutOfRange(index:count:)`` outside the split.
    public func className(at index: Int) throws(IDXError) -> String {
        guard (0..<count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
        return Self.classNames[Int(labels[index])]
    }

    /// A batch of images as one Float32 tensor `[n, 1, 28, 28]` (NCHW), in [0, 1] by default.
    /// - Parameters:
    ///   - range: which images.
    ///   - normalization: the scaling (the Fashion-MNIST app uses ``Normalization/unit``).
    /// - Throws: ``IDXError/indexOutOfRange(index:count:)`` when the range leaves the split.
    public func tensor(range: Range<Int>, normalization: Normalization = .unit) throws(IDXError) -> Tensor {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw .indexOutOfRange(index: range.upperBound - 1, count: count)
        }
        let lut = normalization.lookupTable(channel: 0)
        let area = Self.side * Self.side
        let values = pixels[range.lowerBound * area..<range.upperBound * area].map { lut[Int($0)] }
        return try! Tensor(shape: [range.count, 1, Self.side, Self.side], float32: values, layout: .nchw)
    }
}

/// An IDX file (the MNIST family's format): a magic number giving the element type and
/// rank, the dimensions, then the elements. Only unsigned-byte data is supported.
public struct IDXFile: Sendable {
    /// The size of each axis.
    public let dimensions: [Int]
    /// The elements, row-major.
    public let bytes: [UInt8]

    /// Reads an IDX file, gzip-compressed (`.gz`) or not.
    /// - Parameter path: the file's path.
    /// - Throws: ``IDXError`` when it is missing, corrupt or not unsigned bytes.
    public init(contentsOfFile path: String) throws(IDXError) {
        let raw: [UInt8]
        do {
            raw = try readFileBytes(path)
        } catch {
            if case .unreadableFile(_, let reason) = error { throw .unreadable(path: path, reason: reason) }
            throw .unreadable(path: path, reason: error.description)
        }
        try self.init(data: raw, path: path)
    }

    /// Parses IDX bytes (inflating gzip first when they start with the gzip magic).
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: a name for error messages.
    /// - Throws: ``IDXError`` when the data is corrupt or not unsigned bytes.
    public init(data: [UInt8], path: String = "<memory>") throws(IDXError) {
        var bytes = data
        if data.starts(with: [0x1F, 0x8B]) { bytes = try Self.gunzip(data, path: path) }
        guard bytes.count >= 4, bytes[0] == 0, bytes[1] == 0 else {
            throw .corrupt(path: path, reason: "the IDX magic number is missing")
        }
        guard bytes[2] == 0x08 else {
            throw .corrupt(path: path, reason: String(format: "element type 0x%02X is not unsigned bytes (0x08)", bytes[2]))
        }
        let rank = Int(bytes[3])
        guard rank >= 1, bytes.count >= 4 + 4 * rank else {
            throw .corrupt(path: path, reason: "the header is cut short")
        }
        var dimensions: [Int] = []
        for axis in 0..<rank {
            let at = 4 + 4 * axis
            dimensions.append(Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
        }
        let count = dimensions.reduce(1, *)
        let start = 4 + 4 * rank
        guard bytes.count - start == count else {
            throw .corrupt(path: path, reason: "dimensions \(dimensions) need \(count) bytes but \(bytes.count - start) follow the header (truncated file?)")
        }
        self.dimensions = dimensions
        self.bytes = Array(bytes[start...])
    }

    private static func gunzip(_ data: [UInt8], path: String) throws(IDXError) -> [UInt8] {
        var buffer = cic_buffer()
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        let status = data.withUnsafeBufferPointer { input in
            cic_gunzip(input.baseAddress, input.count, 1 << 31, &buffer, &message)
        }
        guard status == CIC_OK else {
            throw .corrupt(path: path, reason: "gzip: " + String(cString: message.map { UInt8(bitPattern: $0) } + [0]))
        }
        return takeBuffer(&buffer)
    }
}

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
