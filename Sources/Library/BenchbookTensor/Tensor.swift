/// The element type of a ``Tensor``.
public enum ElementType: String, Sendable, CaseIterable {
    case float32, uint8, int8, int32, int64
}

/// How the axes of an image tensor are ordered.
public enum Layout: String, Sendable {
    /// Batch, channels, height, width (PyTorch).
    case nchw = "NCHW"
    /// Batch, height, width, channels (TensorFlow Lite).
    case nhwc = "NHWC"
}

/// A dense, row-major n-dimensional array of numbers, a value type.
///
/// Storage is one flat array of the element type; `shape` gives the axes.
public struct Tensor: Sendable {
    /// Storage for the elements, one case per element type.
    public enum Storage: Sendable, Equatable {
        case float32([Float])
        case uint8([UInt8])
        case int8([Int8])
        case int32([Int32])
        case int64([Int64])
    }

    /// The size of each axis.
    public private(set) var shape: [Int]
    /// The elements in row-major order.
    public private(set) var storage: Storage
    /// Axis order for image tensors, when known.
    public var layout: Layout?

    /// The element type of the storage.
    public var elementType: ElementType {
        switch storage {
        case .float32: .float32
        case .uint8: .uint8
        case .int8: .int8
        case .int32: .int32
        case .int64: .int64
        }
    }

    /// The number of elements (the product of the shape).
    public var scalarCount: Int { shape.reduce(1, *) }

    /// Creates a tensor from a shape and storage.
    /// - Parameters:
    ///   - shape: the size of each axis; every size must be zero or more.
    ///   - storage: exactly `shape.product` elements.
    ///   - layout: the axis order, for image tensors.
    /// - Throws: ``TensorError/shapeMismatch(_:)`` when the counts differ.
    public init(shape: [Int], storage: Storage, layout: Layout? = nil) throws(TensorError) {
        let expected = shape.reduce(1, *)
        guard shape.allSatisfy({ $0 >= 0 }), expected == storage.count else {
            throw .shapeMismatch("shape \(shape) needs \(expected) elements but \(storage.count) were given")
        }
        self.shape = shape
        self.storage = storage
        self.layout = layout
    }

    /// Creates a float32 tensor.
    /// - Throws: ``TensorError/shapeMismatch(_:)`` when the element count is wrong.
    public init(shape: [Int], float32 values: [Float], layout: Layout? = nil) throws(TensorError) {
        try self.init(shape: shape, storage: .float32(values), layout: layout)
    }

    /// The elements converted to `Float` (quantised values are not dequantised).
    public var floats: [Float] {
        switch storage {
        case .float32(let v): v
        case .uint8(let v): v.map(Float.init)
        case .int8(let v): v.map(Float.init)
        case .int32(let v): v.map(Float.init)
        case .int64(let v): v.map(Float.init)
        }
    }
}

extension Tensor.Storage {
    /// The number of elements.
    public var count: Int {
        switch self {
        case .float32(let v): v.count
        case .uint8(let v): v.count
        case .int8(let v): v.count
        case .int32(let v): v.count
        case .int64(let v): v.count
        }
    }
}

/// Why a tensor operation could not be done.
public enum TensorError: Error, CustomStringConvertible, Equatable {
    /// Shapes or element counts do not fit; the text says which and what was expected.
    case shapeMismatch(String)
    /// The operation does not support this element type.
    case unsupportedElementType(String)
    /// An axis or index is out of range.
    case outOfRange(String)

    public var description: String {
        switch self {
        case .shapeMismatch(let text): "Shape mismatch: \(text)."
        case .unsupportedElementType(let text): "Unsupported element type: \(text)."
        case .outOfRange(let text): "Out of range: \(text)."
        }
    }
}
