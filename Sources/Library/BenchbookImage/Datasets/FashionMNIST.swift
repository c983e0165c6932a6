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
/// try test.className(at: 0)          // "Ankle boot"
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
