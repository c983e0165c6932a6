import Foundation

/// A named resampling filter, with Pillow's meaning of each name.
///
/// Every filter except ``nearest`` is a convolution whose support grows with the
/// reduction factor when shrinking, so downscaling is antialiased as in Pillow's
/// `Image.resize`.
public enum ResizeFilter: String, Sendable, CaseIterable {
    /// Nearest neighbour: the source pixel under each output pixel's centre (`Image.NEAREST`).
    case nearest
    /// Box: every source pixel inside the output pixel counts equally (`Image.BOX`);
    /// the same as area averaging, OpenCV's `INTER_AREA` for whole-number reductions.
    case box
    /// Triangle (linear) filter (`Image.BILINEAR`), torchvision's default.
    case bilinear
    /// Hamming-windowed sinc with support 1 (`Image.HAMMING`).
    case hamming
    /// Cubic convolution with a = -0.5 (`Image.BICUBIC`).
    case bicubic
    /// Lanczos-windowed sinc with support 3 (`Image.LANCZOS`).
    case lanczos

    /// Area averaging; the same filter as ``box``.
    public static var area: ResizeFilter { .box }

    /// Half-width of the filter's kernel, in source pixels at scale 1.
    var support: Double {
        switch self {
        case .nearest, .box: 0.5
        case .bilinear, .hamming: 1
        case .bicubic: 2
        case .lanczos: 3
        }
    }

    /// The kernel's weight at distance `x`.
    func weight(_ x: Double) -> Double {
        switch self {
        case .nearest, .box:
            return x > -0.5 && x <= 0.5 ? 1 : 0
        case .bilinear:
            let d = abs(x)
            return d < 1 ? 1 - d : 0
        case .hamming:
            let d = abs(x)
            if d == 0 { return 1 }
            if d >= 1 { return 0 }
            let t = d * Double.pi
            return sin(t) / t * (0.54 + 0.46 * cos(t))
        case .bicubic:
            let a = -0.5
            let d = abs(x)
            if d < 1 { return ((a + 2) * d - (a + 3)) * d * d + 1 }
            if d < 2 { return (((d - 5) * d + 8) * d - 4) * a }
            return 0
        case .lanczos:
            let d = abs(x)
            guard d < 3 else { return 0 }
            return Self.sinc(d) * Self.sinc(d / 3)
        }
    }

    private static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let t = x * Double.pi
        return sin(t) / t
    }
}
