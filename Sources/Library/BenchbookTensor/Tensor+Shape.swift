extension Tensor.Storage {
    /// The elements at the given flat indices, same element type.
    func gathering(_ indices: [Int]) -> Tensor.Storage {
        switch self {
        case .float32(let v): .float32(indices.map { v[$0] })
        case .uint8(let v): .uint8(indices.map { v[$0] })
        case .int8(let v): .int8(indices.map { v[$0] })
        case .int32(let v): .int32(indices.map { v[$0] })
        case .int64(let v): .int64(indices.map { v[$0] })
        }
    }

    /// A contiguous run of elements, same element type.
    func slice(_ range: Range<Int>) -> Tensor.Storage {
        switch self {
        case .float32(let v): .float32(Array(v[range]))
        case .uint8(let v): .uint8(Array(v[range]))
        case .int8(let v): .int8(Array(v[range]))
        case .int32(let v): .int32(Array(v[range]))
        case .int64(let v): .int64(Array(v[range]))
        }
    }
}

extension Tensor {
    /// Row-major strides of a shape (elements to skip per step along each axis).
    static func strides(of shape: [Int]) -> [Int] {
        var strides = [Int](repeating: 1, count: shape.count)
        var step = 1
        for axis in shape.indices.reversed() {
            strides[axis] = step
            step *= shape[axis]
        }
        return strides
    }

    /// Resolves a possibly negative axis (-1 is the last).
    func resolvedAxis(_ axis: Int) throws(TensorError) -> Int {
        let resolved = axis < 0 ? axis + shape.count : axis
        guard (0..<shape.count).contains(resolved) else {
            throw .outOfRange("axis \(axis) does not exist in a tensor of rank \(shape.count) (shape \(shape))")
        }
        return resolved
    }

    /// Returns the same elements with a new shape; one axis may be -1 to infer its size,
    /// as NumPy's `reshape`.
    /// - Parameter newShape: the new axes; their product must equal ``scalarCount``.
    /// - Throws: ``TensorError/shapeMismatch(_:)`` when the counts differ.
    public func reshaped(to newShape: [Int]) throws(TensorError) -> Tensor {
        var resolved = newShape
        let unknown = newShape.indices.filter { newShape[$0] == -1 }
        guard unknown.count <= 1, newShape.allSatisfy({ $0 >= -1 }) else {
            throw .shapeMismatch("reshape to \(newShape): at most one axis may be -1 and none may be negative otherwise")
        }
        if let axis = unknown.first {
            let known = newShape.filter { $0 != -1 }.reduce(1, *)
            guard known > 0, scalarCount % known == 0 else {
                throw .shapeMismatch("cannot reshape \(shape) (\(scalarCount) elements) to \(newShape)")
            }
            resolved[axis] = scalarCount / known
        }
        guard resolved.reduce(1, *) == scalarCount else {
            throw .shapeMismatch("cannot reshape \(shape) (\(scalarCount) elements) to \(newShape) (\(resolved.reduce(1, *)) elements)")
        }
        return try Tensor(shape: resolved, storage: storage, layout: resolved.count == shape.count ? layout : nil)
    }

    /// Returns the tensor with its axes reordered, as NumPy's `transpose(axes)`.
    /// - Parameter axes: a permutation of `0..<rank`; output axis i is input axis `axes[i]`.
    /// - Throws: ``TensorError/outOfRange(_:)`` when `axes` is not a permutation.
    public func permuted(_ axes: [Int]) throws(TensorError) -> Tensor {
        guard axes.count == shape.count, Set(axes) == Set(0..<shape.count) else {
            throw .outOfRange("\(axes) is not a permutation of the \(shape.count) axes of shape \(shape)")
        }
        let newShape = axes.map { shape[$0] }
        let inputStrides = Self.strides(of: shape)
        let permutedStrides = axes.map { inputStrides[$0] }
        var indices = [Int](repeating: 0, count: scalarCount)
        var counter = [Int](repeating: 0, count: newShape.count)
        var source = 0
        for flat in 0..<scalarCount {
            indices[flat] = source
            var axis = newShape.count - 1
            while axis >= 0 {
                counter[axis] += 1
                source += permutedStrides[axis]
                if counter[axis] < newShape[axis] { break }
                source -= permutedStrides[axis] * newShape[axis]
                counter[axis] = 0
                axis -= 1
            }
        }
        return try Tensor(shape: newShape, storage: storage.gathering(indices))
    }

    /// Returns an image tensor converted between NCHW and NHWC.
    /// - Parameter target: the layout wanted.
    /// - Throws: ``TensorError/shapeMismatch(_:)`` when the tensor is not rank 4 with a known layout.
    public func converted(to target: Layout) throws(TensorError) -> Tensor {
        guard shape.count == 4, let layout else {
            throw .shapeMismatch("layout conversion needs a rank-4 tensor with a known layout; this one is \(shape), layout \(layout?.rawValue ?? "unknown")")
        }
        if layout == target { return self }
        var result = try permuted(target == .nhwc ? [0, 2, 3, 1] : [0, 3, 1, 2])
        result.layout = target
        return result
    }

    /// Returns one index along an axis, with that axis removed (NumPy's `t[i]`, `t[:, i]`).
    /// - Parameters:
    ///   - index: the position along the axis.
    ///   - axis: which axis (negative counts from the end).
    /// - Throws: ``TensorError/outOfRange(_:)`` when the axis or index does not exist.
    public func slice(at index: Int, alongAxis axis: Int = 0) throws(TensorError) -> Tensor {
        let axis = try resolvedAxis(axis)
        guard (0..<shape[axis]).contains(index) else {
            throw .outOfRange("index \(index) along axis \(axis) of shape \(shape)")
        }
        let outer = shape[..<axis].reduce(1, *)
        let inner = shape[(axis + 1)...].reduce(1, *)
        var indices: [Int] = []
        indices.reserveCapacity(outer * inner)
        for o in 0..<outer {
            let base = (o * shape[axis] + index) * inner
            indices.append(contentsOf: base..<base + inner)
        }
        var newShape = shape
        newShape.remove(at: axis)
        return try Tensor(shape: newShape, storage: storage.gathering(indices))
    }

    /// Returns items `range` of the batch (axis 0), keeping the axis (NumPy's `t[a:b]`).
    /// - Parameter range: which items.
    /// - Throws: ``TensorError/outOfRange(_:)`` when the range leaves the batch.
    public func batch(_ range: Range<Int>) throws(TensorError) -> Tensor {
        guard let first = shape.first, range.lowerBound >= 0, range.upperBound <= first else {
            throw .outOfRange("batch range \(range) of shape \(shape)")
        }
        let inner = shape.dropFirst().reduce(1, *)
        return try Tensor(shape: [range.count] + shape.dropFirst(),
                          storage: storage.slice(range.lowerBound * inner..<range.upperBound * inner), layout: layout)
    }

    /// Returns one channel of an image tensor, keeping the axis (shape `[N, 1, H, W]` or
    /// `[N, H, W, 1]`), using the tensor's layout (NCHW when unknown).
    /// - Parameter channel: the channel index.
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing channel or a tensor that is not rank 4.
    public func channel(_ channel: Int) throws(TensorError) -> Tensor {
        guard shape.count == 4 else { throw .outOfRange("channel slicing needs a rank-4 image tensor, not \(shape)") }
        let axis = layout == .nhwc ? 3 : 1
        var newShape = shape
        newShape[axis] = 1
        var result = try slice(at: channel, alongAxis: axis).reshaped(to: newShape)
        result.layout = layout ?? .nchw
        return result
    }

    /// Returns the tensor's elements converted to another element type (Float32 to
    /// integers rounds half to even and saturates).
    /// - Parameter type: the element type wanted.
    public func converted(to type: ElementType) -> Tensor {
        if type == elementType { return self }
        let values = floats
        let storage: Storage = switch type {
        case .float32: .float32(values)
        case .uint8: .uint8(values.map { UInt8(clamping: Int(($0.isNaN ? 0 : $0).rounded(.toNearestOrEven).clamped(-1e9, 1e9))) })
        case .int8: .int8(values.map { Int8(clamping: Int(($0.isNaN ? 0 : $0).rounded(.toNearestOrEven).clamped(-1e9, 1e9))) })
        case .int32: .int32(values.map { Int32(clamping: Int(($0.isNaN ? 0 : $0).rounded(.toNearestOrEven).clamped(-3e9, 3e9))) })
        case .int64: .int64(values.map { Int64(($0.isNaN ? 0 : $0).rounded(.toNearestOrEven).clamped(-9e18, 9e18)) })
        }
        return try! Tensor(shape: shape, storage: storage, layout: layout)
    }
}

extension Float {
    func clamped(_ low: Float, _ high: Float) -> Float { Swift.min(Swift.max(self, low), high) }
}
