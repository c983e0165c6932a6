/// The Exif orientation tag (0x0112): how a camera's stored pixels must be turned to
/// stand upright. Raw values are the tag's values 1...8.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    /// Already upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the main diagonal (transpose).
    case leftMirrored = 5
    /// Needs a quarter turn clockwise (phone held upright, the usual portrait photo).
    case right = 6
    /// Mirrored along the anti-diagonal (transverse).
    case rightMirrored = 7
    /// Needs a quarter turn counter-clockwise.
    case left = 8
}

extension Image {
    /// Returns the image turned upright for an Exif orientation, as Pillow's
    /// `ImageOps.exif_transpose` does.
    /// - Parameter orientation: the orientation the stored pixels have.
    public func oriented(_ orientation: ExifOrientation) -> Image {
        let w = width, h = height
        switch orientation {
        case .up: return self
        case .upMirrored: return remapped(width: w, height: h) { x, y in (w - 1 - x, y) }
        case .down: return remapped(width: w, height: h) { x, y in (w - 1 - x, h - 1 - y) }
        case .downMirrored: return remapped(width: w, height: h) { x, y in (x, h - 1 - y) }
        case .leftMirrored: return remapped(width: h, height: w) { x, y in (y, x) }
        case .right: return remapped(width: h, height: w) { x, y in (y, h - 1 - x) }
        case .rightMirrored: return remapped(width: h, height: w) { x, y in (w - 1 - y, h - 1 - x) }
        case .left: return remapped(width: h, height: w) { x, y in (w - 1 - y, x) }
        }
    }

    /// Returns the image mirrored left to right.
    public func flippedHorizontally() -> Image { oriented(.upMirrored) }

    /// Returns the image mirrored top to bottom.
    public func flippedVertically() -> Image { oriented(.downMirrored) }

    /// Returns the image turned a quarter turn clockwise.
    public func rotatedClockwise() -> Image { oriented(.right) }

    /// Builds an image of the given size whose pixel (x, y) is this image's pixel `source(x, y)`.
    private func remapped(width newWidth: Int, height newHeight: Int,
                          source: (Int, Int) -> (Int, Int)) -> Image {
        let channels = channelCount
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * channels)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for y in 0..<newHeight {
                    for x in 0..<newWidth {
                        let (sx, sy) = source(x, y)
                        let from = (sy * width + sx) * channels
                        let to = (y * newWidth + x) * channels
                        for c in 0..<channels { out[to + c] = input[from + c] }
                    }
                }
            }
        }
        return Image(uncheckedWidth: newWidth, height: newHeight, format: format, pixels: output)
    }
}
