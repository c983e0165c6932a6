/// Affine quantisation parameters: `real = scale * (quantised - zeroPoint)`.
public struct QuantizationParameters: Sendable, Equatable, CustomStringConvertible {
    /// The real-valued step between consecutive quantised values.
    public var scale: Float
    /// The quantised value that represents real 0.
    public var zeroPoint: Int

    /// Creates parameters.
    /// - Parameters:
    ///   - scale: the step, greater than 0.
    ///   - zeroPoint: the quantised value of 0.
    public init(scale: Float, zeroPoint: Int) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }

    /// Parameters covering `[minimum, maximum]` (widened to include 0) with the full range
    /// of an 8-bit type, as TensorFlow Lite's and PyTorch's min/max observers choose them.
    /// - Parameters:
    ///   - minimum: the smallest real value to represent.
    ///   - maximum: the largest real value to represent.
    ///   - type: ``ElementType/uint8`` (0...255) or ``ElementType/int8`` (-128...127).
    /// - Throws: ``TensorError/unsupportedElementType(_:)`` for other types.
    public static func fitting(minimum: Float, maximum: Float, to type: ElementType) throws(TensorError) -> QuantizationParameters {
        let (qmin, qmax) = try Tensor.quantizedRange(of: type)
        let low = Swift.min(minimum, 0), high = Swift.max(maximum, 0)
        let scale = high > low ? (high - low) / Float(qmax - qmin) : 1
        let zeroPoint = Swift.min(qmax, Swift.max(qmin, qmin - Int((low / scale).rounded(.toNearestOrEven))))
        return QuantizationParameters(scale: scale, zeroPoint: zeroPoint)
    }

    /// `scale=..., zeroPoint=...`.
    public var description: String { "scale=\(scale), zeroPoint=\(zeroPoint)" }
}

extension Tensor {
    static func quantizedRange(of type: ElementType) throws(TensorError) -> (Int, Int) {
        switch type {
        case .uint8: (0, 255)
        case .int8: (-128, 127)
        default: throw .unsupportedElementType("quantisation targets uint8 or int8, not \(type)")
        }
    }

    /// Quantises Float32 values: `q = clamp(round(x / scale) + zeroPoint)`, rounding half to
    /// even as PyTorch's `quantize_per_tensor` and NumPy's `round` do.
    /// - Parameters:
    ///   - parameters: scale and zero point.
    ///   - type: ``ElementType/uint8`` or ``ElementType/int8``.
    /// - Throws: ``TensorError/unsupportedElementType(_:)`` for other target types or a
    ///   tensor that is not Float32.
    public func quantized(with parameters: QuantizationParameters, to type: ElementType) throws(TensorError) -> Tensor {
        guard case .float32(let values) = storage else {
            throw .unsupportedElementType("quantise a float32 tensor, not \(elementType)")
        }
        guard parameters.scale > 0 else { throw .outOfRange("quantisation scale must be > 0, not \(parameters.scale)") }
        let (qmin, qmax) = try Self.quantizedRange(of: type)
        let q = values.map { value -> Int in
            let scaled = (value / parameters.scale).rounded(.toNearestOrEven)
            guard scaled.isFinite else { return scaled > 0 ? qmax : qmin }
            let clampedScaled = Swift.min(Swift.max(scaled, -1e6), 1e6)
            return Swift.min(qmax, Swift.max(qmin, Int(clampedScaled) + parameters.zeroPoint))
        }
        let storage: Storage = type == .uint8 ? .uint8(q.map { UInt8($0) }) : .int8(q.map { Int8($0) })
        return try Tensor(shape: shape, storage: storage, layout: layout)
    }

    /// Dequantises: `x = scale * (q - zeroPoint)` as Float32.
    /// - Parameter parameters: the scale and zero point the values were quantised with.
    public func dequantized(with parameters: QuantizationParameters) -> Tensor {
        let zero = Float(parameters.zeroPoint)
        return map { ($0 - zero) * parameters.scale }
    }
}
