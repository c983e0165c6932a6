extension Image {
    /// Stretches each colour channel so its darkest value becomes 0 and its lightest 255,
    /// after ignoring `cutoff` percent of the darkest and of the lightest samples, as
    /// Pillow's `ImageOps.autocontrast(image, cutoff)` does. Alpha is kept.
    /// - Parameter cutoff: percent (0 ..< 50) of samples cut from each end of the histogram.
    /// - Throws: ``ImageError/invalidArgument(_:)`` when `cutoff` is outside 0 ..< 50.
    public func autocontrasted(cutoff: Double = 0) throws(ImageError) -> Image {
        guard cutoff >= 0, cutoff < 50 else {
            throw .invalidArgument("autocontrast cutoff must be a percent in 0 ..< 50, not \(cutoff)")
        }
        return applyingLookupTables(histograms().map { Self.autocontrastTable(histogram: $0, cutoff: cutoff) })
    }

    /// Spreads each colour channel's values so their histogram is as flat as possible, as
    /// Pillow's `ImageOps.equalize` does. Alpha is kept.
    public func equalized() -> Image {
        applyingLookupTables(histograms().map(Self.equalizeTable(histogram:)))
    }

    static func autocontrastTable(histogram: [Int], cutoff: Double) -> [UInt8] {
        var h = histogram
        if cutoff > 0 {
            let total = h.reduce(0, +)
            let cut = Int((Double(total) * cutoff / 100).rounded(.down))
            trim(&h, count: cut, indices: Array(0..<256))
            trim(&h, count: cut, indices: Array((0..<256).reversed()))
        }
        guard let low = h.firstIndex(where: { $0 != 0 }), let high = h.lastIndex(where: { $0 != 0 }), high > low else {
            return (0...255).map { UInt8($0) }
        }
        let scale = 255.0 / Double(high - low)
        let offset = -Double(low) * scale
        return (0..<256).map { value in
            let mapped = Int(Double(value) * scale + offset)
            return UInt8(max(0, min(255, mapped)))
        }
    }

    /// Removes `count` samples from the histogram, walking the bins in `indices` order.
    private static func trim(_ h: inout [Int], count: Int, indices: [Int]) {
        var cut = count
        for index in indices {
            if cut > h[index] {
                cut -= h[index]
                h[index] = 0
            } else {
                h[index] -= cut
                cut = 0
            }
            if cut <= 0 { break }
        }
    }

    static func equalizeTable(histogram h: [Int]) -> [UInt8] {
        let used = h.filter { $0 != 0 }
        guard used.count > 1 else { return (0...255).map { UInt8($0) } }
        let step = (used.reduce(0, +) - used.last!) / 255
        guard step > 0 else { return (0...255).map { UInt8($0) } }
        var running = step / 2
        var table = [UInt8](repeating: 0, count: 256)
        for value in 0..<256 {
            table[value] = UInt8(min(255, running / step))
            running += h[value]
        }
        return table
    }
}
