/// Weights that turn red, green and blue into one luminance value.
public enum GrayscaleWeights: String, Sendable, CaseIterable {
    /// ITU-R BT.601-2 luma, in Pillow's fixed point:
    /// `L = (R * 19595 + G * 38470 + B * 7471 + 0x8000) >> 16`. Bit-exact with
    /// Pillow's `convert("L")`, which the Fashion-MNIST course app mirrors.
    case bt601
    /// ITU-R BT.709 (HDTV, sRGB) luma 0.2126 R + 0.7152 G + 0.0722 B, in the same
    /// 16-bit fixed point (13933, 46871, 4732).
    case bt709

    /// Red, green and blue weights in 1/65536 units; they sum to 65536.
    public var fixedPointWeights: (red: UInt32, green: UInt32, blue: UInt32) {
        switch self {
        case .bt601: (19595, 38470, 7471)
        case .bt709: (13933, 46871, 4732)
        }
    }
}

extension Image {
    /// Returns a gray image (``PixelFormat/gray``, or ``PixelFormat/grayAlpha`` when this
    /// image has alpha, which is kept).
    /// - Parameter weights: the luma weights; the default is Pillow's BT.601.
    public func grayscale(weights: GrayscaleWeights = .bt601) -> Image {
        switch format {
        case .gray, .grayAlpha: return self
        case .rgb, .rgba: break
        }
        let (wr, wg, wb) = weights.fixedPointWeights
        let channels = channelCount
        let outChannels = format.hasAlpha ? 2 : 1
        let count = width * height
        var output = [UInt8](repeating: 0, count: count * outChannels)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for i in 0..<count {
                    let p = i * channels
                    let red: UInt32 = UInt32(input[p]) * wr
                    let green: UInt32 = UInt32(input[p + 1]) * wg
                    let blue: UInt32 = UInt32(input[p + 2]) * wb
                    let luma = (red + green + blue + 0x8000) >> 16
                    out[i * outChannels] = UInt8(truncatingIfNeeded: luma)
                    if outChannels == 2 { out[i * 2 + 1] = input[p + 3] }
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, format: outChannels == 2 ? .grayAlpha : .gray, pixels: output)
    }
}
