import BenchbookTensor

/// The affine quantisation of a tensor: `real = scale * (stored - zeroPoint)`.
public struct Quantization: Sendable, Equatable, CustomStringConvertible {
    /// The step between two stored values.
    public var scale: Float
    /// The stored value that means real zero.
    public var zeroPoint: Int

    /// Creates quantisation parameters.
    /// - Parameters:
    ///   - scale: the step between two stored values.
    ///   - zeroPoint: the stored value that means zero.
    public init(scale: Float, zeroPoint: Int) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }

    /// A plain-text rendering.
    public var description: String { "scale \(scale), zero point \(zeroPoint)" }
}

/// What a model says about one of its input or output tensors.
public struct TensorDescription: Sendable, Equatable, CustomStringConvertible {
    /// The tensor's name, when the format records one.
    public var name: String?
    /// The shape; `-1` marks a size the model accepts any value for (usually the batch).
    /// `nil` when the format does not record shapes.
    public var shape: [Int]?
    /// The element type, when known.
    public var elementType: ElementType?
    /// Quantisation parameters of a quantised tensor.
    public var quantization: Quantization?
    /// The axis order of an image tensor, when known.
    public var layout: Layout?

    /// Creates a description.
    /// - Parameters:
    ///   - name: the tensor's name.
    ///   - shape: the shape, `-1` for any size.
    ///   - elementType: the element type.
    ///   - quantization: quantisation parameters.
    ///   - layout: the axis order of an image tensor.
    public init(name: String?, shape: [Int]?, elementType: ElementType?, quantization: Quantization? = nil,
                layout: Layout? = nil) {
        self.name = name
        self.shape = shape
        self.elementType = elementType
        self.quantization = quantization
        self.layout = layout
    }

    /// A plain-text rendering.
    public var description: String {
        var parts = [name ?? "(unnamed)"]
        parts.append(shape.map(ModelError.shapeText) ?? "shape unknown")
        parts.append(elementType?.rawValue ?? "type unknown")
        if let layout { parts.append(layout.rawValue) }
        if let quantization { parts.append(quantization.description) }
        return parts.joined(separator: " ")
    }
}
