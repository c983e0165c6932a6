/// An 8-bit raster image, a value type: width, height, pixel format and the samples.
///
/// Samples are stored row by row, top to bottom, with the channels of a pixel
/// interleaved (`RGBRGB...`), exactly like a Pillow image converted with
/// `numpy.asarray(image)`. Every operation returns a new image.
///
/// ```swift
/// let input = try Image(contentsOfFile: "data/photos/grace_hopper.jpg", draftSize: Size(width: 224, height: 224))
///     .resized(shorterSide: 256, filter: .bilinear)
///     .centerCropped(to: Size(width: 224, height: 224))
///     .tensor(normalization: .imageNet, layout: .nchw)
/// ```
public struct Image: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// How the samples of one pixel are arranged.
    public let format: PixelFormat
    /// All samples, `height * width * format.channelCount` of them, row-major.
    public internal(set) var pixels: [UInt8]

    /// The width and height.
    public var size: Size { Size(width: width, height: height) }

    /// Samples per pixel.
    public var channelCount: Int { format.channelCount }

    /// Creates an image from its samples.
    /// - Parameters:
    ///   - width: width in pixels, at least 1.
    ///   - height: height in pixels, at least 1.
    ///   - format: how the samples of one pixel are arranged.
    ///   - pixels: `width * height * format.channelCount` samples, row-major.
    /// - Throws: ``ImageError/emptyImage(_:)`` for a zero size,
    ///   ``ImageError/sampleCountMismatch(expected:actual:)`` when the count is wrong.
    public init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .emptyImage("an image of \(width)x\(height) pixels was requested")
        }
        let expected = width * height * format.channelCount
        guard pixels.count == expected else {
            throw .sampleCountMismatch(expected: expected, actual: pixels.count)
        }
        self.init(uncheckedWidth: width, height: height, format: format, pixels: pixels)
    }

    /// Creates an image where every pixel has the same samples.
    /// - Parameters:
    ///   - width: width in pixels, at least 1.
    ///   - height: height in pixels, at least 1.
    ///   - format: how the samples of one pixel are arranged.
    ///   - pixel: one value per channel, for example `[255, 255, 255]` for white RGB.
    /// - Throws: ``ImageError/emptyImage(_:)`` for a zero size,
    ///   ``ImageError/sampleCountMismatch(expected:actual:)`` when `pixel` has the wrong count.
    public init(width: Int, height: Int, format: PixelFormat, filledWith pixel: [UInt8]) throws(ImageError) {
        guard pixel.count == format.channelCount else {
            throw .sampleCountMismatch(expected: format.channelCount, actual: pixel.count)
        }
        guard width > 0, height > 0 else {
            throw .emptyImage("an image of \(width)x\(height) pixels was requested")
        }
        var samples = [UInt8](repeating: 0, count: width * height * pixel.count)
        if pixel.count == 1 {
            samples = [UInt8](repeating: pixel[0], count: width * height)
        } else {
            for index in stride(from: 0, to: samples.count, by: pixel.count) {
                for channel in 0..<pixel.count { samples[index + channel] = pixel[channel] }
            }
        }
        self.init(uncheckedWidth: width, height: height, format: format, pixels: samples)
    }

    /// Creates an image without checks; callers guarantee the sizes.
    init(uncheckedWidth width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * format.channelCount)
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// The samples of the pixel at column `x`, row `y` (top-left is 0, 0).
    /// - Parameters:
    ///   - x: the column, `0..<width`.
    ///   - y: the row, `0..<height`.
    /// - Throws: ``ImageError/pixelOutOfBounds(x:y:size:)`` outside the image.
    public func pixel(x: Int, y: Int) throws(ImageError) -> [UInt8] {
        guard (0..<width).contains(x), (0..<height).contains(y) else {
            throw .pixelOutOfBounds(x: x, y: y, size: size)
        }
        let start = (y * width + x) * channelCount
        return Array(pixels[start..<start + channelCount])
    }
}
