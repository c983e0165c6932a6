extension Tensor {
    /// Splits the shape around an axis: (product before, size, product after).
    func split(at axis: Int) -> (outer: Int, size: Int, inner: Int) {
        (shape[..<axis].reduce(1, *), shape[axis], shape[(axis + 1)...].reduce(1, *))
    }

    /// Reduces along one axis with a function over that axis' values (in order).
    func reduced(alongAxis axis: Int, _ reduce: ([Float]) -> Float) throws(TensorError) -> Tensor {
        let axis = try resolvedAxis(axis)
        let (outer, size, inner) = split(at: axis)
        guard size > 0 else { throw .shapeMismatch("cannot reduce along empty axis \(axis) of shape \(shape)") }
        let values = floats
        var result = [Float](repeating: 0, count: outer * inner)
        var line = [Float](repeating: 0, count: size)
        for o in 0..<outer {
            for i in 0..<inner {
                for k in 0..<size { line[k] = values[(o * size + k) * inner + i] }
                result[o * inner + i] = reduce(line)
            }
        }
        var newShape = shape
        newShape.remove(at: axis)
        return try Tensor(shape: newShape, float32: result)
    }

    /// The sum of all elements (accumulated in Double).
    public func sum() -> Float { Float(floats.reduce(0.0) { $0 + Double($1) }) }

    /// The mean of all elements (NaN for an empty tensor).
    public func mean() -> Float { scalarCount == 0 ? .nan : Float(floats.reduce(0.0) { $0 + Double($1) } / Double(scalarCount)) }

    /// The largest element, or `nil` for an empty tensor.
    public func max() -> Float? { floats.max() }

    /// The flat index of the largest element (the first when tied), or `nil` when empty.
    public func argmax() -> Int? {
        let values = floats
        guard var best = values.indices.first else { return nil }
        for i in values.indices where values[i] > values[best] { best = i }
        return best
    }

    /// Sums along an axis, removing it (NumPy's `sum(axis=)`).
    /// - Parameter axis: the axis (negative counts from the end).
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing axis.
    public func sum(alongAxis axis: Int) throws(TensorError) -> Tensor {
        try reduced(alongAxis: axis) { Float($0.reduce(0.0) { $0 + Double($1) }) }
    }

    /// Averages along an axis, removing it.
    /// - Parameter axis: the axis (negative counts from the end).
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing axis.
    public func mean(alongAxis axis: Int) throws(TensorError) -> Tensor {
        try reduced(alongAxis: axis) { Float($0.reduce(0.0) { $0 + Double($1) } / Double($0.count)) }
    }

    /// The maximum along an axis, removing it.
    /// - Parameter axis: the axis (negative counts from the end).
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing axis.
    public func max(alongAxis axis: Int) throws(TensorError) -> Tensor {
        try reduced(alongAxis: axis) { $0.max()! }
    }

    /// The index of the maximum along an axis (first when tied), as an Int64 tensor
    /// without that axis; for logits `[N, classes]` use axis -1 to get each prediction.
    /// - Parameter axis: the axis (negative counts from the end).
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing axis.
    public func argmax(alongAxis axis: Int) throws(TensorError) -> Tensor {
        let indices = try reduced(alongAxis: axis) { line in
            var best = 0
            for k in line.indices where line[k] > line[best] { best = k }
            return Float(best)
        }
        return try Tensor(shape: indices.shape, storage: .int64(indices.floats.map { Int64($0) }))
    }
}
