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
