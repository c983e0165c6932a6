/// An opaque RGB colour, for backgrounds and padding.
public struct RGBColor: Sendable, Hashable {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8

    /// Creates a colour.
    /// - Parameters:
    ///   - red: red, 0...255.
    ///   - green: green, 0...255.
    ///   - blue: blue, 0...255.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A gray level.
    /// - Parameter gray: 0 black ... 255 white.
    public init(gray: UInt8) { self.init(red: gray, green: gray, blue: gray) }

    /// White (255, 255, 255), the usual background for product photos.
    public static let white = RGBColor(gray: 255)
    /// Black (0, 0, 0), the Fashion-MNIST background.
    public static let black = RGBColor(gray: 0)

    /// The BT.601 gray level of this colour, as Pillow computes it.
    public var grayLevel: UInt8 {
        let r: UInt32 = UInt32(red) * 19595
        let g: UInt32 = UInt32(green) * 38470
        let b: UInt32 = UInt32(blue) * 7471
        return UInt8((r + g + b + 0x8000) >> 16)
    }
}

/// The order of colour channels a model expects.
public enum ChannelOrder: String, Sendable {
    /// Red, green, blue (PyTorch, TensorFlow Lite, Pillow).
    case rgb
    /// Blue, green, red (OpenCV, Caffe-era models).
    case bgr
}

extension Image {
    /// Returns the image with its samples rearranged to another pixel format, as Pillow's
    /// `convert` does: gray becomes equal R, G, B; colour becomes BT.601 gray; added
    /// alpha is 255 (opaque); removed alpha is dropped (use ``flattened(onto:)`` to blend).
    /// - Parameter target: the pixel format wanted.
    public func converted(to target: PixelFormat) -> Image {
        if target == format { return self }
        var source = self
        if target.colorChannelCount == 1 && format.colorChannelCount == 3 { source = grayscale() }
        let inChannels = source.channelCount, outChannels = target.channelCount
        let count = width * height
        let sourceColor = source.format.colorChannelCount, targetColor = target.colorChannelCount
        var output = [UInt8](repeating: 255, count: count * outChannels)
        source.pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for i in 0..<count {
                    let p = i * inChannels, q = i * outChannels
                    for c in 0..<targetColor { out[q + c] = input[p + (sourceColor == 1 ? 0 : c)] }
                    if target.hasAlpha && source.format.hasAlpha { out[q + outChannels - 1] = input[p + inChannels - 1] }
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, format: target, pixels: output)
    }

    /// Returns an opaque image: alpha blended onto a background colour, as Pillow's
    /// `background.paste(image, mask=alpha)` does (`(c * a + bg * (255 - a)) / 255`, rounded).
    /// Images without alpha are returned unchanged.
    /// - Parameter background: the colour behind transparent pixels (gray images use its
    ///   BT.601 gray level).
    public func flattened(onto background: RGBColor = .white) -> Image {
        guard format.hasAlpha else { return self }
        let channels = channelCount, colors = channels - 1
        let back: [UInt32] = colors == 1 ? [UInt32(background.grayLevel)]
            : [UInt32(background.red), UInt32(background.green), UInt32(background.blue)]
        let count = width * height
        var output = [UInt8](repeating: 0, count: count * colors)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for i in 0..<count {
                    let alpha = UInt32(input[i * channels + colors])
                    for c in 0..<colors {
                        let t = UInt32(input[i * channels + c]) * alpha + back[c] * (255 - alpha) + 128
                        out[i * colors + c] = UInt8(((t >> 8) + t) >> 8)
                    }
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, format: colors == 1 ? .gray : .rgb, pixels: output)
    }

    /// Returns the image with red and blue exchanged (RGB to BGR and back). Gray images
    /// are returned unchanged.
    public func swappingRedAndBlue() -> Image {
        guard format.colorChannelCount == 3 else { return self }
        let channels = channelCount
        var output = pixels
        output.withUnsafeMutableBufferPointer { samples in
            for start in stride(from: 0, to: samples.count, by: channels) { samples.swapAt(start, start + 2) }
        }
        return Image(uncheckedWidth: width, height: height, format: format, pixels: output)
    }

    /// Returns the photographic negative: each colour sample `v` becomes `255 - v`
    /// (Pillow's `ImageOps.invert`); alpha is kept. Fashion-MNIST items are light on black,
    /// so a product photo on white usually needs this.
    public func inverted() -> Image {
        applyingLookupTables(Array(repeating: (0...255).map { UInt8(255 - $0) }, count: format.colorChannelCount))
    }

    /// Applies one 256-entry table per colour channel (alpha untouched).
    func applyingLookupTables(_ tables: [[UInt8]]) -> Image {
        let channels = channelCount, colors = format.colorChannelCount
        precondition(tables.count == colors && tables.allSatisfy { $0.count == 256 })
        var output = pixels
        output.withUnsafeMutableBufferPointer { samples in
            for c in 0..<colors {
                tables[c].withUnsafeBufferPointer { table in
                    for index in stride(from: c, to: samples.count, by: channels) {
                        samples[index] = table[Int(samples[index])]
                    }
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, format: format, pixels: output)
    }

    /// Counts of each sample value, one 256-bin histogram per colour channel.
    public func histograms() -> [[Int]] {
        let channels = channelCount, colors = format.colorChannelCount
        var result = [[Int]](repeating: [Int](repeating: 0, count: 256), count: colors)
        pixels.withUnsafeBufferPointer { samples in
            for c in 0..<colors {
                var counts = [Int](repeating: 0, count: 256)
                for index in stride(from: c, to: samples.count, by: channels) { counts[Int(samples[index])] += 1 }
                result[c] = counts
            }
        }
        return result
    }
}
