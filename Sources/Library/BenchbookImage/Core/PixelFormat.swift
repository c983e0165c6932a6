/// How the 8-bit samples of an ``Image`` pixel are arranged.
public enum PixelFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One luminance sample per pixel (Pillow mode `L`).
    case gray
    /// Luminance then alpha (Pillow mode `LA`).
    case grayAlpha
    /// Red, green, blue (Pillow mode `RGB`).
    case rgb
    /// Red, green, blue, alpha (Pillow mode `RGBA`), not premultiplied.
    case rgba

    /// The number of samples per pixel: 1, 2, 3 or 4.
    public var channelCount: Int {
        switch self {
        case .gray: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// Whether the last sample of each pixel is alpha (opacity).
    public var hasAlpha: Bool { self == .grayAlpha || self == .rgba }

    /// The number of colour samples per pixel, not counting alpha (1 or 3).
    public var colorChannelCount: Int { hasAlpha ? channelCount - 1 : channelCount }

    /// The Pillow mode with the same layout, for comparing with Python.
    public var pillowMode: String {
        switch self {
        case .gray: "L"
        case .grayAlpha: "LA"
        case .rgb: "RGB"
        case .rgba: "RGBA"
        }
    }

    /// The format that has `channelCount` samples per pixel, if any.
    /// - Parameter channelCount: 1, 2, 3 or 4.
    public init?(channelCount: Int) {
        switch channelCount {
        case 1: self = .gray
        case 2: self = .grayAlpha
        case 3: self = .rgb
        case 4: self = .rgba
        default: return nil
        }
    }

    /// The format's name, for example `rgb`.
    public var description: String { rawValue }
}
