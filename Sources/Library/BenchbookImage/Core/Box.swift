/// A rectangle of pixels: left and top edges (inclusive), right and bottom (exclusive),
/// as in Pillow's `crop((left, upper, right, lower))`.
public struct Box: Sendable, Hashable, CustomStringConvertible {
    /// First column inside the box.
    public var left: Int
    /// First row inside the box.
    public var top: Int
    /// First column after the box.
    public var right: Int
    /// First row after the box.
    public var bottom: Int

    /// Creates a box from its edges.
    /// - Parameters:
    ///   - left: first column inside.
    ///   - top: first row inside.
    ///   - right: first column after.
    ///   - bottom: first row after.
    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// Creates a box from its top-left corner and size.
    /// - Parameters:
    ///   - x: first column inside.
    ///   - y: first row inside.
    ///   - width: number of columns.
    ///   - height: number of rows.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(left: x, top: y, right: x + width, bottom: y + height)
    }

    /// Number of columns.
    public var width: Int { right - left }
    /// Number of rows.
    public var height: Int { bottom - top }

    /// `(left, top, right, bottom)` like Pillow prints a box.
    public var description: String { "(\(left), \(top), \(right), \(bottom))" }
}
