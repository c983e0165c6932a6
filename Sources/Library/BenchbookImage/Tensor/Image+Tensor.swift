import BenchbookTensor

extension Image {
    /// Converts the image to a Float32 model input tensor.
    ///
    /// ```swift
    /// let image = try Image(contentsOfFile: "data/photos/rocket.jpg")
    /// let input = try image.resized(shorterSide: 256).centerCropped(to: Size(square: 224))
    ///     .tensor(normalization: .imageNet, layout: .nchw)   // shape [1, 3, 224, 224]
    /// ```
    /// Alpha is dropped (flatten it first with ``flattened(onto:)`` when it matters).
    /// - Parameters:
    ///   - normalization: the preset or custom statistics (``Normalization/imageNet``,
    ///     ``Normalization/unit``, ``Normalization/symmetric``, ``Normalization/custom(mean:std:)``).
    ///   - layout: ``Layout/nchw`` (PyTorch) or ``Layout/nhwc`` (TensorFlow Lite).
    ///   - channelOrder: ``ChannelOrder/rgb`` or ``ChannelOrder/bgr``; the statistics are
    ///     read in this output order.
    ///   - batched: add a leading batch axis of size 1 (the default).
    /// - Throws: ``ImageError/invalidArgument(_:)`` when the statistics have a different
    ///   number of channels than the image (for example ImageNet's three on a gray image:
    ///   convert with `converted(to: .rgb)` or use one mean and std).
    public func tensor(normalization: Normalization = .unit, layout: Layout = .nchw,
                       channelOrder: ChannelOrder = .rgb, batched: Bool = true) throws(ImageError) -> Tensor {
        let colors = format.colorChannelCount, channels = channelCount
        for statistic in [normalization.mean, normalization.std] where statistic.count != 1 && statistic.count != colors {
            throw .invalidArgument("\(normalization.name) normalisation has \(statistic.count) channel statistics but the \(format) image has \(colors) colour channels")
        }
        let tables = (0..<colors).map { normalization.lookupTable(channel: $0) }
        let count = width * height
        var values = [Float](repeating: 0, count: count * colors)
        pixels.withUnsafeBufferPointer { input in
            values.withUnsafeMutableBufferPointer { out in
                for c in 0..<colors {
                    // Statistics are given in the output (model) channel order.
                    let sourceChannel = channelOrder == .bgr && colors == 3 ? 2 - c : c
                    tables[c].withUnsafeBufferPointer { lut in
                        switch layout {
                        case .nchw:
                            let plane = out.baseAddress! + c * count
                            for i in 0..<count { plane[i] = lut[Int(input[i * channels + sourceChannel])] }
                        case .nhwc:
                            for i in 0..<count { out[i * colors + c] = lut[Int(input[i * channels + sourceChannel])] }
                        }
                    }
                }
            }
        }
        let axes = layout == .nchw ? [colors, height, width] : [height, width, colors]
        do {
            return try Tensor(shape: batched ? [1] + axes : axes, float32: values, layout: layout)
        } catch {
            throw .invalidArgument("internal tensor shape error: \(error)")
        }
    }
}

extension Image {
    /// The raw 8-bit samples as a UInt8 tensor, for models that take unnormalised pixels
    /// (a quantised TensorFlow Lite model with a `uint8` input, or a model whose
    /// normalisation lives inside it). Alpha is dropped.
    /// - Parameters:
    ///   - layout: ``Layout/nhwc`` (TensorFlow Lite, the default) or ``Layout/nchw``.
    ///   - channelOrder: ``ChannelOrder/rgb`` or ``ChannelOrder/bgr``.
    ///   - batched: add a leading batch axis of size 1 (the default).
    public func pixelTensor(layout: Layout = .nhwc, channelOrder: ChannelOrder = .rgb, batched: Bool = true) -> Tensor {
        let colors = format.colorChannelCount, channels = channelCount
        let count = width * height
        var values = [UInt8](repeating: 0, count: count * colors)
        pixels.withUnsafeBufferPointer { input in
            values.withUnsafeMutableBufferPointer { out in
                for c in 0..<colors {
                    let sourceChannel = channelOrder == .bgr && colors == 3 ? 2 - c : c
                    for i in 0..<count {
                        let value = input[i * channels + sourceChannel]
                        if layout == .nchw { out[c * count + i] = value } else { out[i * colors + c] = value }
                    }
                }
            }
        }
        let axes = layout == .nchw ? [colors, height, width] : [height, width, colors]
        return try! Tensor(shape: batched ? [1] + axes : axes, storage: .uint8(values), layout: layout)
    }
}
