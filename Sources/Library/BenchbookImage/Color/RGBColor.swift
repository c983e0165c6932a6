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
