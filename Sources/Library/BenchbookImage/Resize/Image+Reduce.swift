extension Image {
    /// Shrinks the image by whole factors, each output pixel the rounded mean of a
    /// `factorX` x `factorY` block (blocks at the right and bottom edges may be smaller),
    /// as Pillow's `Image.reduce`. Images with alpha are averaged premultiplied.
    /// - Parameters:
    ///   - factorX: the horizontal factor, at least 1.
    ///   - factorY: the vertical factor, at least 1.
    /// - Throws: ``ImageError/invalidArgument(_:)`` for a factor below 1.
    public func reduced(factorX: Int, factorY: Int) throws(ImageError) -> Image {
        guard factorX >= 1, factorY >= 1 else {
            throw .invalidArgument("reduction factors must be at least 1, not \(factorX)x\(factorY)")
        }
        if factorX == 1 && factorY == 1 { return self }
        guard format.hasAlpha else { return reducedUnchecked(factorX: factorX, factorY: factorY) }
        return premultiplied().reducedUnchecked(factorX: factorX, factorY: factorY).unpremultiplied()
    }

    /// Shrinks by the same whole factor on both axes; see ``reduced(factorX:factorY:)``.
    /// - Parameter factor: the factor, at least 1.
    /// - Throws: ``ImageError/invalidArgument(_:)`` for a factor below 1.
    public func reduced(by factor: Int) throws(ImageError) -> Image {
        try reduced(factorX: factor, factorY: factor)
    }

    /// Block means on the stored samples (no premultiplication).
    func reducedUnchecked(factorX: Int, factorY: Int) -> Image {
        let channels = channelCount
        let newWidth = (width + factorX - 1) / factorX
        let newHeight = (height + factorY - 1) / factorY
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * channels)
        var sums = [UInt32](repeating: 0, count: newWidth * channels)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for y in 0..<newHeight {
                    let firstRow = y * factorY, rows = min(factorY, height - firstRow)
                    for i in sums.indices { sums[i] = 0 }
                    for row in firstRow..<firstRow + rows {
                        let line = row * width * channels
                        for x in 0..<width {
                            let target = (x / factorX) * channels
                            for c in 0..<channels { sums[target + c] += UInt32(input[line + x * channels + c]) }
                        }
                    }
                    for x in 0..<newWidth {
                        let columns = min(factorX, width - x * factorX)
                        let count = UInt32(columns * rows)
                        let multiplier = Self.reciprocal(count)
                        for c in 0..<channels {
                            let mean = ((sums[x * channels + c] + count / 2) &* multiplier) >> 24
                            out[(y * newWidth + x) * channels + c] = UInt8(truncatingIfNeeded: mean)
                        }
                    }
                }
            }
        }
        return Image(uncheckedWidth: newWidth, height: newHeight, format: format, pixels: output)
    }

    /// `2^32 / (256 * count)` computed in Float32 and truncated, so that
    /// `(sum * reciprocal) >> 24` divides by `count` exactly as Pillow's reducer does
    /// (it rounds some exact halves down; this keeps results bit-identical).
    static func reciprocal(_ count: UInt32) -> UInt32 {
        UInt32(Float(4_294_967_296.0) / Float(256 * count))
    }
}
