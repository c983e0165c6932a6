extension Image {
    /// Returns the image resized to exactly `width` x `height` with a named filter.
    ///
    /// Matches Pillow's `Image.resize((width, height), filter)`: a separable convolution
    /// (horizontal pass, then vertical) with 22-bit fixed-point weights, whose support is
    /// widened by the reduction factor when shrinking (antialiasing). Images with alpha
    /// are resized premultiplied, as Pillow does, so transparent pixels do not bleed colour.
    /// - Parameters:
    ///   - width: the new width, at least 1.
    ///   - height: the new height, at least 1.
    ///   - filter: the resampling filter; ``ResizeFilter/bilinear`` is torchvision's default.
    /// - Throws: ``ImageError/invalidArgument(_:)`` for a size below 1x1.
    ///   - reducingGap: Pillow's `reducing_gap`: when set (2 or 3 are typical), the image is
    ///     first shrunk by whole factors `floor(size / new size / gap)` with box averaging
    ///     (``reduced(by:)``), then resized from there; faster, and close to the full result
    ///     when the gap is 3 or more. `nil` (Pillow's default) resizes in one pass.
    public func resized(width newWidth: Int, height newHeight: Int, filter: ResizeFilter = .bilinear,
                        reducingGap: Double? = nil) throws(ImageError) -> Image {
        guard newWidth > 0, newHeight > 0 else {
            throw .invalidArgument("cannot resize to \(newWidth)x\(newHeight); both sides must be at least 1")
        }
        if let reducingGap, reducingGap < 1 {
            throw .invalidArgument("reducingGap must be at least 1, not \(reducingGap)")
        }
        if newWidth == width && newHeight == height { return self }
        if filter == .nearest { return nearestResized(width: newWidth, height: newHeight) }
        // Alpha images are worked on premultiplied throughout, unpremultiplied once at the end.
        var source = format.hasAlpha ? premultiplied() : self
        var box = (left: 0.0, top: 0.0, right: Double(width), bottom: Double(height))
        if let reducingGap {
            let factorX = max(1, Int(Double(width) / Double(newWidth) / reducingGap))
            let factorY = max(1, Int(Double(height) / Double(newHeight) / reducingGap))
            if factorX > 1 || factorY > 1 {
                source = source.reducedUnchecked(factorX: factorX, factorY: factorY)
                box = (0, 0, Double(width) / Double(factorX), Double(height) / Double(factorY))
            }
        }
        let result = source.convolved(width: newWidth, height: newHeight, box: box, filter: filter)
        return format.hasAlpha ? result.unpremultiplied() : result
    }

    /// Returns the image resized to `size` with a named filter.
    /// - Parameters:
    ///   - size: the new size.
    ///   - filter: the resampling filter.
    ///   - reducingGap: see ``resized(width:height:filter:reducingGap:)``.
    /// - Throws: ``ImageError/invalidArgument(_:)`` for a size below 1x1.
    public func resized(to size: Size, filter: ResizeFilter = .bilinear, reducingGap: Double? = nil) throws(ImageError) -> Image {
        try resized(width: size.width, height: size.height, filter: filter, reducingGap: reducingGap)
    }

    /// Returns the image resized so its shorter side is `shorterSide`, keeping the aspect
    /// ratio (torchvision's `Resize(n)`: the longer side becomes `int(n * long / short)`).
    /// - Parameters:
    ///   - shorterSide: the new length of the shorter side, at least 1.
    ///   - filter: the resampling filter.
    /// - Throws: ``ImageError/invalidArgument(_:)`` when `shorterSide` is below 1.
    public func resized(shorterSide: Int, filter: ResizeFilter = .bilinear) throws(ImageError) -> Image {
        guard shorterSide > 0 else { throw .invalidArgument("the shorter side must be at least 1, not \(shorterSide)") }
        if width <= height {
            return try resized(width: shorterSide, height: max(1, shorterSide * height / width), filter: filter)
        }
        return try resized(width: max(1, shorterSide * width / height), height: shorterSide, filter: filter)
    }

    /// Nearest neighbour, sampling each output pixel centre as Pillow's affine scaler does.
    private func nearestResized(width newWidth: Int, height newHeight: Int) -> Image {
        let channels = channelCount
        let xScale = Double(width) / Double(newWidth)
        let yScale = Double(height) / Double(newHeight)
        var columns = [Int](repeating: 0, count: newWidth)
        var position = xScale * 0.5
        for x in 0..<newWidth {
            columns[x] = min(Int(position), width - 1)
            position += xScale
        }
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * channels)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var rowPosition = yScale * 0.5
                for y in 0..<newHeight {
                    let sourceRow = min(Int(rowPosition), height - 1) * width * channels
                    rowPosition += yScale
                    let target = y * newWidth * channels
                    for x in 0..<newWidth {
                        let from = sourceRow + columns[x] * channels
                        for c in 0..<channels { out[target + x * channels + c] = input[from + c] }
                    }
                }
            }
        }
        return Image(uncheckedWidth: newWidth, height: newHeight, format: format, pixels: output)
    }

    /// The two-pass fixed-point convolution of the source region `box`.
    private func convolved(width newWidth: Int, height newHeight: Int,
                           box: (left: Double, top: Double, right: Double, bottom: Double),
                           filter: ResizeFilter) -> Image {
        var current = self
        if newWidth != width || box.left != 0 || box.right != Double(width) {
            let kernel = ResampleKernel(inputSize: width, outputSize: newWidth, start: box.left, end: box.right, filter: filter)
            current = current.horizontallyResampled(to: newWidth, kernel: kernel)
        }
        if newHeight != height || box.top != 0 || box.bottom != Double(height) {
            let kernel = ResampleKernel(inputSize: height, outputSize: newHeight, start: box.top, end: box.bottom, filter: filter)
            current = current.verticallyResampled(to: newHeight, kernel: kernel)
        }
        return current
    }

    private func horizontallyResampled(to newWidth: Int, kernel: ResampleKernel) -> Image {
        let channels = channelCount
        var output = [UInt8](repeating: 0, count: newWidth * height * channels)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                kernel.weights.withUnsafeBufferPointer { weights in
                    kernel.starts.withUnsafeBufferPointer { starts in
                        kernel.counts.withUnsafeBufferPointer { counts in
                            let plan = HorizontalPlan(weights: weights.baseAddress!, starts: starts.baseAddress!,
                                                      counts: counts.baseAddress!, stride: kernel.stride, outputWidth: newWidth)
                            for y in 0..<height {
                                let row = input.baseAddress! + y * width * channels
                                let outRow = out.baseAddress! + y * newWidth * channels
                                switch channels {
                                case 1: plan.resample(row, outRow, channels: 1)
                                case 2: plan.resample(row, outRow, channels: 2)
                                case 3: plan.resample(row, outRow, channels: 3)
                                default: plan.resample(row, outRow, channels: 4)
                                }
                            }
                        }
                    }
                }
            }
        }
        return Image(uncheckedWidth: newWidth, height: height, format: format, pixels: output)
    }

    private func verticallyResampled(to newHeight: Int, kernel: ResampleKernel) -> Image {
        let rowLength = width * channelCount
        let shift = Int32(ResampleKernel.precisionBits)
        let half = Int32(1) << (shift - 1)
        var output = [UInt8](repeating: 0, count: rowLength * newHeight)
        var sums = [Int32](repeating: 0, count: rowLength)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                sums.withUnsafeMutableBufferPointer { sums in
                    let sum = sums.baseAddress!
                    for y in 0..<newHeight {
                        let first = kernel.starts[y], count = kernel.counts[y]
                        for i in 0..<rowLength { sum[i] = half }
                        for tap in 0..<count {
                            let weight = kernel.weights[y * kernel.stride + tap]
                            let row = input.baseAddress! + (first + tap) * rowLength
                            for i in 0..<rowLength { sum[i] &+= Int32(row[i]) &* weight }
                        }
                        let outRow = out.baseAddress! + y * rowLength
                        for i in 0..<rowLength { outRow[i] = clampToByte(sum[i] >> shift) }
                    }
                }
            }
        }
        return Image(uncheckedWidth: width, height: newHeight, format: format, pixels: output)
    }

    /// Colour samples multiplied by alpha / 255 (rounded), alpha unchanged.
    func premultiplied() -> Image {
        let channels = channelCount
        var output = pixels
        output.withUnsafeMutableBufferPointer { samples in
            for start in stride(from: 0, to: samples.count, by: channels) {
                let alpha = UInt32(samples[start + channels - 1])
                for c in 0..<(channels - 1) {
                    let t = UInt32(samples[start + c]) * alpha + 128
                    samples[start + c] = UInt8(((t >> 8) + t) >> 8)
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, format: format, pixels: output)
    }

    /// Inverse of ``premultiplied()``: colour samples divided by alpha / 255.
    func unpremultiplied() -> Image {
        let channels = channelCount
        var output = pixels
        output.withUnsafeMutableBufferPointer { samples in
            for start in stride(from: 0, to: samples.count, by: channels) {
                let alpha = Int(samples[start + channels - 1])
                guard alpha != 0 && alpha != 255 else { continue }
                for c in 0..<(channels - 1) {
                    samples[start + c] = UInt8(min(255, 255 * Int(samples[start + c]) / alpha))
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, format: format, pixels: output)
    }
}

/// Clamps a fixed-point result to 0...255.
@inline(__always)
func clampToByte(_ value: Int32) -> UInt8 {
    value < 0 ? 0 : (value > 255 ? 255 : UInt8(truncatingIfNeeded: value))
}

/// Raw views of a horizontal kernel for the inner loop.
private struct HorizontalPlan {
    let weights: UnsafePointer<Int32>
    let starts: UnsafePointer<Int>
    let counts: UnsafePointer<Int>
    let stride: Int
    let outputWidth: Int

    /// Resamples one row; `channels` is a constant at each call site so the per-channel
    /// sums stay in registers.
    @inline(__always)
    func resample(_ row: UnsafePointer<UInt8>, _ outRow: UnsafeMutablePointer<UInt8>, channels: Int) {
        let shift = Int32(ResampleKernel.precisionBits)
        let half = Int32(1) << (shift - 1)
        for x in 0..<outputWidth {
            let w = weights + x * stride
            var source = row + starts[x] * channels
            var s0 = half, s1 = half, s2 = half, s3 = half
            for i in 0..<counts[x] {
                let weight = w[i]
                s0 &+= Int32(source[0]) &* weight
                if channels > 1 { s1 &+= Int32(source[1]) &* weight }
                if channels > 2 { s2 &+= Int32(source[2]) &* weight }
                if channels > 3 { s3 &+= Int32(source[3]) &* weight }
                source += channels
            }
            let target = outRow + x * channels
            target[0] = clampToByte(s0 >> shift)
            if channels > 1 { target[1] = clampToByte(s1 >> shift) }
            if channels > 2 { target[2] = clampToByte(s2 >> shift) }
            if channels > 3 { target[3] = clampToByte(s3 >> shift) }
        }
    }
}
