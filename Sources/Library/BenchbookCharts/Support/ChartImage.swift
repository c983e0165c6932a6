import Foundation

/// Raw pixels for an image grid (and decoded PNGs), independent of any image library.
///
/// Rows top to bottom, pixels left to right, 8 bits per channel, channels interleaved:
/// 1 (gray), 3 (RGB) or 4 (RGBA, straight alpha).
public struct ChartImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Channels per pixel: 1, 3 or 4.
    public let channels: Int
    /// The pixel bytes, `width * height * channels` of them.
    public let pixels: [UInt8]

    /// Creates an image from interleaved 8-bit pixels.
    /// - Parameters:
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    ///   - channels: 1 (gray), 3 (RGB) or 4 (RGBA).
    ///   - pixels: `width * height * channels` bytes, rows top to bottom.
    /// - Throws: ``ChartError/invalidPixels(expected:actual:)`` when the length does not match.
    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0, [1, 3, 4].contains(channels) else {
            throw ChartError.invalidData("an image needs a positive size and 1, 3 or 4 channels (got \(width)×\(height)×\(channels))")
        }
        guard pixels.count == width * height * channels else {
            throw ChartError.invalidPixels(expected: width * height * channels, actual: pixels.count)
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// Creates a gray image from 8-bit values.
    public init(width: Int, height: Int, gray: [UInt8]) throws {
        try self.init(width: width, height: height, channels: 1, pixels: gray)
    }

    /// Creates an RGB image from interleaved 8-bit values.
    public init(width: Int, height: Int, rgb: [UInt8]) throws {
        try self.init(width: width, height: height, channels: 3, pixels: rgb)
    }

    /// Creates an RGBA image from interleaved 8-bit values (straight alpha).
    public init(width: Int, height: Int, rgba: [UInt8]) throws {
        try self.init(width: width, height: height, channels: 4, pixels: rgba)
    }

    /// Creates a gray image from floating-point values (a model input such as a
    /// Fashion-MNIST tensor), mapping `range` to black...white and clamping outside it.
    /// - Parameters:
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    ///   - values: `width * height` values, rows top to bottom.
    ///   - range: the value shown black and the value shown white.
    public init(width: Int, height: Int, grayValues values: [Float], range: ClosedRange<Float> = 0...1) throws {
        let span = range.upperBound - range.lowerBound
        let bytes = values.map { value -> UInt8 in
            let t = span > 0 ? (value - range.lowerBound) / span : 0
            return UInt8((min(max(t.isFinite ? t : 0, 0), 1) * 255).rounded())
        }
        try self.init(width: width, height: height, channels: 1, pixels: bytes)
    }

    /// Decodes a PNG file (any PNG cairo reads: gray, RGB, palette, with or without alpha)
    /// into RGBA pixels.
    /// - Parameter pngData: the bytes of a `.png` file.
    /// - Throws: ``ChartError/notPNG(_:)``.
    public init(pngData: Data) throws {
        self = try CairoPNG.decode(pngData)
    }

    /// The RGBA bytes of pixel (`x`, `y`).
    public func rgba(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let index = (y * width + x) * channels
        switch channels {
        case 1: return (pixels[index], pixels[index], pixels[index], 255)
        case 3: return (pixels[index], pixels[index + 1], pixels[index + 2], 255)
        default: return (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
        }
    }

    /// Calls `body` once per row with the row as premultiplied native-endian ARGB words
    /// (cairo's `CAIRO_FORMAT_ARGB32`).
    func withPremultipliedARGB(_ body: (Int, [UInt32]) -> Void) {
        var row = [UInt32](repeating: 0, count: width)
        for y in 0..<height {
            for x in 0..<width {
                let p = rgba(x: x, y: y)
                let a = UInt32(p.alpha)
                func premultiply(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                row[x] = a << 24 | premultiply(p.red) << 16 | premultiply(p.green) << 8 | premultiply(p.blue)
            }
            body(y, row)
        }
    }
}
