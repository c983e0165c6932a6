extension Tensor {
    /// Combines two tensors element by element; the result is Float32.
    /// A tensor with one element is broadcast against the other.
    /// - Parameters:
    ///   - other: the right-hand operand, same shape (or one element).
    ///   - operation: what to do with each pair.
    /// - Throws: ``TensorError/shapeMismatch(_:)`` when the shapes differ.
    public func elementwise(_ other: Tensor, _ operation: (Float, Float) -> Float) throws(TensorError) -> Tensor {
        let a = floats, b = other.floats
        if shape == other.shape {
            var result = [Float](repeating: 0, count: a.count)
            for i in 0..<a.count { result[i] = operation(a[i], b[i]) }
            return try Tensor(shape: shape, float32: result, layout: layout)
        }
        if other.scalarCount == 1 { return try Tensor(shape: shape, float32: a.map { operation($0, b[0]) }, layout: layout) }
        if scalarCount == 1 { return try Tensor(shape: other.shape, float32: b.map { operation(a[0], $0) }, layout: other.layout) }
        throw .shapeMismatch("element-wise operation on shapes \(shape) and \(other.shape); make them equal with reshaped(to:) or permuted(_:)")
    }

    /// Applies a function to every element; the result is Float32.
    /// - Parameter transform: the function.
    public func map(_ transform: (Float) -> Float) -> Tensor {
        try! Tensor(shape: shape, float32: floats.map(transform), layout: layout)
    }

    /// Element-wise sum. - Throws: ``TensorError/shapeMismatch(_:)`` for different shapes.
    public static func + (lhs: Tensor, rhs: Tensor) throws(TensorError) -> Tensor { try lhs.elementwise(rhs, +) }
    /// Element-wise difference. - Throws: ``TensorError/shapeMismatch(_:)`` for different shapes.
    public static func - (lhs: Tensor, rhs: Tensor) throws(TensorError) -> Tensor { try lhs.elementwise(rhs, -) }
    /// Element-wise product. - Throws: ``TensorError/shapeMismatch(_:)`` for different shapes.
    public static func * (lhs: Tensor, rhs: Tensor) throws(TensorError) -> Tensor { try lhs.elementwise(rhs, *) }
    /// Element-wise quotient. - Throws: ``TensorError/shapeMismatch(_:)`` for different shapes.
    public static func / (lhs: Tensor, rhs: Tensor) throws(TensorError) -> Tensor { try lhs.elementwise(rhs, /) }

    /// Adds a number to every element.
    public static func + (lhs: Tensor, rhs: Float) -> Tensor { lhs.map { $0 + rhs } }
    /// Subtracts a number from every element.
    public static func - (lhs: Tensor, rhs: Float) -> Tensor { lhs.map { $0 - rhs } }
    /// Multiplies every element by a number.
    public static func * (lhs: Tensor, rhs: Float) -> Tensor { lhs.map { $0 * rhs } }
    /// Divides every element by a number.
    public static func / (lhs: Tensor, rhs: Float) -> Tensor { lhs.map { $0 / rhs } }

    /// The largest absolute element-wise difference, for comparing outputs.
    /// - Parameter other: a tensor of the same shape.
    /// - Throws: ``TensorError/shapeMismatch(_:)`` for different shapes.
    public func maxAbsoluteDifference(_ other: Tensor) throws(TensorError) -> Float {
        try elementwise(other) { abs($0 - $1) }.floats.max() ?? 0
    }
}
