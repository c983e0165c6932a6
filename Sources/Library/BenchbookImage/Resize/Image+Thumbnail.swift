import Foundation

extension Image {
    /// The size Pillow's `thumbnail` picks to fit inside `bounds` keeping the aspect ratio:
    /// the limiting side is taken as given, the other side is the floor or ceiling of its
    /// exact value, whichever keeps the aspect ratio closer (at least 1). `nil` when the
    /// image already fits.
    /// - Parameter bounds: the largest width and height allowed.
    public func thumbnailSize(fitting bounds: Size) -> Size? {
        guard bounds.width < width || bounds.height < height else { return nil }
        let aspect = Double(width) / Double(height)
        var x = bounds.width, y = bounds.height
        if Double(x) / Double(y) >= aspect {
            let exact = Double(y) * aspect
            x = Self.closest(exact) { abs(aspect - Double($0) / Double(y)) }
        } else {
            let exact = Double(x) / aspect
            y = Self.closest(exact) { $0 == 0 ? 0 : abs(aspect - Double(x) / Double($0)) }
        }
        return Size(width: x, height: y)
    }

    /// Returns the image shrunk to fit inside `bounds`, keeping its aspect ratio, as
    /// Pillow's `Image.thumbnail(bounds)`: bicubic, with a reducing gap of 2 by default.
    /// An image that already fits is returned unchanged (thumbnails never enlarge).
    /// - Parameters:
    ///   - bounds: the largest width and height allowed, each at least 1.
    ///   - filter: the resampling filter.
    ///   - reducingGap: see ``resized(width:height:filter:reducingGap:)``; `nil` for one pass.
    /// - Throws: ``ImageError/invalidArgument(_:)`` for bounds below 1x1.
    public func thumbnail(fitting bounds: Size, filter: ResizeFilter = .bicubic,
                          reducingGap: Double? = 2) throws(ImageError) -> Image {
        guard bounds.width > 0, bounds.height > 0 else {
            throw .invalidArgument("thumbnail bounds must be at least 1x1, not \(bounds)")
        }
        guard let size = thumbnailSize(fitting: bounds), size != self.size else { return self }
        return try resized(to: size, filter: filter, reducingGap: reducingGap)
    }

    /// floor or ceil of `value` (at least 1), whichever scores lower; floor on ties.
    private static func closest(_ value: Double, score: (Int) -> Double) -> Int {
        let low = Int(value.rounded(.down)), high = Int(value.rounded(.up))
        return max(score(high) < score(low) ? high : low, 1)
    }
}
