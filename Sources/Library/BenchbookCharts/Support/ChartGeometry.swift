/// A point in chart coordinates (points, origin top left, y down).
struct ChartPoint {
    var x: Double
    var y: Double
}

/// A rectangle in chart coordinates.
struct ChartRect {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var minX: Double { x }
    var maxX: Double { x + width }
    var minY: Double { y }
    var maxY: Double { y + height }
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }

    /// The rectangle shrunk by the given margins.
    func inset(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) -> ChartRect {
        ChartRect(x: x + left, y: y + top, width: max(0, width - left - right), height: max(0, height - top - bottom))
    }
}

/// The size of a chart in points. At the default scale of 2, a 640 × 400 chart is a
/// 1280 × 800 PNG that the notebook shows at 640 × 400 (sharp on high-density screens).
public struct ChartSize: Sendable, Equatable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// Creates a size in points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
