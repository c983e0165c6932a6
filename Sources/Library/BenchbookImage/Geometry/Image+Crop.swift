extension Image {
    /// Returns the pixels inside a box, as Pillow's `crop((left, top, right, bottom))`.
    /// - Parameter box: the region; it must lie inside the image and hold at least one pixel.
    /// - Throws: ``ImageError/cropOutsideImage(box:size:)`` when it does not.
    public func cropped(to box: Box) throws(ImageError) -> Image {
        guard box.left >= 0, box.top >= 0, box.right <= width, box.bottom <= height,
              box.width > 0, box.height > 0 else {
            throw .cropOutsideImage(box: box, size: size)
        }
        let channels = channelCount
        let rowLength = box.width * channels
        var output = [UInt8](repeating: 0, count: rowLength * box.height)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for y in 0..<box.height {
                    let from = ((box.top + y) * width + box.left) * channels
                    (out.baseAddress! + y * rowLength).update(from: input.baseAddress! + from, count: rowLength)
                }
            }
        }
        return Image(uncheckedWidth: box.width, height: box.height, format: format, pixels: output)
    }

    /// Returns the centred region of a size, as torchvision's `CenterCrop`: the top-left
    /// corner is `round((W - w) / 2), round((H - h) / 2)` with halves rounded to even.
    /// - Parameter size: the size wanted; at most the image's size.
    /// - Throws: ``ImageError/cropOutsideImage(box:size:)`` when `size` is larger than the
    ///   image (resize or pad first).
    public func centerCropped(to size: Size) throws(ImageError) -> Image {
        let left = Int((Double(width - size.width) / 2).rounded(.toNearestOrEven))
        let top = Int((Double(height - size.height) / 2).rounded(.toNearestOrEven))
        return try cropped(to: Box(x: left, y: top, width: size.width, height: size.height))
    }

    /// Returns the centred square whose side is the shorter side.
    /// - Throws: never in practice; typed for the chain.
    public func centerCroppedToSquare() throws(ImageError) -> Image {
        try centerCropped(to: Size(square: min(width, height)))
    }

    /// Returns the image centred on a square canvas (side = the longer side) filled with
    /// a colour, so resizing to a square keeps the aspect ratio.
    /// - Parameter color: the padding colour (gray images use its gray level; alpha
    ///   images get transparent padding of that colour).
    public func paddedToSquare(with color: RGBColor = .black) -> Image {
        let side = max(width, height)
        if width == height { return self }
        return padded(to: Size(square: side), with: color)
    }

    /// Returns the image centred on a canvas of a size at least as large, filled with a
    /// colour. Extra columns and rows go right and bottom when odd.
    /// - Parameters:
    ///   - size: the canvas size; sides smaller than the image's are kept as they are.
    ///   - color: the padding colour.
    public func padded(to size: Size, with color: RGBColor = .black) -> Image {
        let canvasWidth = max(size.width, width), canvasHeight = max(size.height, height)
        var fill: [UInt8] = format.colorChannelCount == 1 ? [color.grayLevel] : [color.red, color.green, color.blue]
        if format.hasAlpha { fill.append(0) }
        guard var canvas = try? Image(width: canvasWidth, height: canvasHeight, format: format, filledWith: fill) else {
            return self
        }
        canvas.paste(self, x: (canvasWidth - width) / 2, y: (canvasHeight - height) / 2)
        return canvas
    }

    /// Copies another image of the same format into this one with its top-left corner at (x, y).
    mutating func paste(_ other: Image, x: Int, y: Int) {
        precondition(other.format == format && x >= 0 && y >= 0 && x + other.width <= width && y + other.height <= height)
        let channels = channelCount, rowLength = other.width * channels
        other.pixels.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { out in
                for row in 0..<other.height {
                    (out.baseAddress! + ((y + row) * width + x) * channels)
                        .update(from: input.baseAddress! + row * rowLength, count: rowLength)
                }
            }
        }
    }

    /// The smallest box holding every pixel that differs from the background by more than
    /// `threshold` in some colour channel, or `nil` when none does.
    /// - Parameters:
    ///   - background: the background colour, or `nil` to use the top-left pixel's colour.
    ///   - threshold: how much a sample must differ (0...254) to count as the item.
    public func itemBoundingBox(background: RGBColor? = nil, threshold: Int = 16) -> Box? {
        let channels = channelCount, colors = format.colorChannelCount
        let back: [Int]
        if let background {
            back = colors == 1 ? [Int(background.grayLevel)] : [Int(background.red), Int(background.green), Int(background.blue)]
        } else {
            back = (0..<colors).map { Int(pixels[$0]) }
        }
        var left = width, top = height, right = -1, bottom = -1
        pixels.withUnsafeBufferPointer { samples in
            for y in 0..<height {
                for x in 0..<width {
                    let p = (y * width + x) * channels
                    var differs = false
                    for c in 0..<colors where abs(Int(samples[p + c]) - back[c]) > threshold { differs = true }
                    if differs {
                        left = min(left, x); right = max(right, x)
                        top = min(top, y); bottom = max(bottom, y)
                    }
                }
            }
        }
        guard right >= 0 else { return nil }
        return Box(left: left, top: top, right: right + 1, bottom: bottom + 1)
    }

    /// Crops to the item: the bounding box of pixels that differ from the background by more
    /// than `threshold`, grown by `margin` pixels on each side (clamped to the image).
    /// - Parameters:
    ///   - background: the background colour, or `nil` to use the top-left pixel's colour.
    ///   - threshold: how much a sample must differ (0...254) to count as the item.
    ///   - margin: pixels of background kept around the item.
    /// - Throws: ``ImageError/emptyImage(_:)`` when no pixel differs from the background
    ///   (lower the threshold or check the background colour).
    public func autoCropped(background: RGBColor? = nil, threshold: Int = 16, margin: Int = 0) throws(ImageError) -> Image {
        guard let box = itemBoundingBox(background: background, threshold: threshold) else {
            throw .emptyImage("auto-crop found no pixel differing from the background by more than \(threshold); lower the threshold or pass the right background colour")
        }
        let grown = Box(left: max(0, box.left - margin), top: max(0, box.top - margin),
                        right: min(width, box.right + margin), bottom: min(height, box.bottom + margin))
        return try cropped(to: grown)
    }
}
