/// A width and height in pixels.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    /// - Parameters:
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A square size.
    /// - Parameter side: the width and the height.
    public init(square side: Int) {
        self.init(width: side, height: side)
    }

    /// `WxH`, for example `224x224`.
    public var description: String { "\(width)x\(height)" }
}
