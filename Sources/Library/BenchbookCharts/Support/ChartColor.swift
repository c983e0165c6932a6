/// An sRGB colour with alpha, components from 0 to 1.
public struct ChartColor: Sendable, Equatable {
    /// Red component, 0...1.
    public var red: Double
    /// Green component, 0...1.
    public var green: Double
    /// Blue component, 0...1.
    public var blue: Double
    /// Opacity, 0...1.
    public var alpha: Double

    /// Creates a colour from components in 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates a colour from a 24-bit hex value such as `0x4C78A8`.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    /// White.
    public static let white = ChartColor(hex: 0xFFFFFF)
    /// Body text: near-black, softer than pure black.
    public static let text = ChartColor(hex: 0x222222)
    /// Secondary text (axis ticks, notes).
    public static let secondaryText = ChartColor(hex: 0x5A5A5A)
    /// Axis lines.
    public static let axis = ChartColor(hex: 0x888888)
    /// Grid lines.
    public static let grid = ChartColor(hex: 0xE3E3E3)
    /// The default bar colour (muted blue).
    public static let primary = ChartColor(hex: 0x4C78A8)
    /// Highlight for the top class or the headline value (orange).
    public static let highlight = ChartColor(hex: 0xF58518)
    /// A correct prediction (green).
    public static let correct = ChartColor(hex: 0x2E8B3E)
    /// A wrong prediction (red).
    public static let wrong = ChartColor(hex: 0xD62728)
    /// Background of quoted (not measured) figures.
    public static let quotedBackground = ChartColor(hex: 0xF3F0E6)

    /// A colour between `self` (t = 0) and `other` (t = 1).
    public func mixed(with other: ChartColor, _ t: Double) -> ChartColor {
        let u = min(max(t, 0), 1)
        return ChartColor(red: red + (other.red - red) * u, green: green + (other.green - green) * u,
                          blue: blue + (other.blue - blue) * u, alpha: alpha + (other.alpha - alpha) * u)
    }

    /// Relative luminance, for choosing black or white text on a fill.
    var luminance: Double { 0.2126 * red + 0.7152 * green + 0.0722 * blue }

    /// Text colour readable on this fill.
    var contrastingText: ChartColor { luminance > 0.5 ? .text : .white }
}

/// Colour ramps for heat maps.
public enum ColorMap: Sendable, Equatable {
    /// Dark blue through green to yellow: perceptually ordered, readable in grey print.
    case sequential
    /// Blue below zero, white at zero, red above: for values with a sign.
    case diverging
    /// White to blue: counts (confusion matrices).
    case blues

    /// The colour at `t` in 0...1.
    public func color(at t: Double) -> ChartColor {
        let stops: [ChartColor]
        switch self {
        case .sequential:
            stops = [ChartColor(hex: 0x440154), ChartColor(hex: 0x3B528B), ChartColor(hex: 0x21908C),
                     ChartColor(hex: 0x5DC963), ChartColor(hex: 0xFDE725)]
        case .diverging:
            stops = [ChartColor(hex: 0x2166AC), ChartColor(hex: 0x92C5DE), ChartColor(hex: 0xF7F7F7),
                     ChartColor(hex: 0xF4A582), ChartColor(hex: 0xB2182B)]
        case .blues:
            stops = [ChartColor(hex: 0xF7FBFF), ChartColor(hex: 0xC6DBEF), ChartColor(hex: 0x6BAED6),
                     ChartColor(hex: 0x2171B5), ChartColor(hex: 0x08306B)]
        }
        let u = t.isFinite ? min(max(t, 0), 1) : 0
        let position = u * Double(stops.count - 1)
        let index = min(Int(position), stops.count - 2)
        return stops[index].mixed(with: stops[index + 1], position - Double(index))
    }
}
