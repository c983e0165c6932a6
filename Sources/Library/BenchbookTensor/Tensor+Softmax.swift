import Foundation

/// One entry of a top-k result: a class index and its score.
public struct TopKEntry: Sendable, Equatable, CustomStringConvertible {
    /// Position along the axis (the class index).
    public var index: Int
    /// The value at that position (a probability after softmax).
    public var value: Float

    /// Creates an entry.
    /// - Parameters:
    ///   - index: the class index.
    ///   - value: its score.
    public init(index: Int, value: Float) {
        self.index = index
        self.value = value
    }

    /// `#index: value`.
    public var description: String { "#\(index): \(value)" }
}

extension Tensor {
    /// Applies a function to every line along an axis (values in order), writing the same
    /// number of outputs.
    func transformingLines(alongAxis axis: Int, _ transform: ([Float]) -> [Float]) throws(TensorError) -> Tensor {
        let axis = try resolvedAxis(axis)
        let (outer, size, inner) = split(at: axis)
        let values = floats
        var result = [Float](repeating: 0, count: values.count)
        var line = [Float](repeating: 0, count: size)
        for o in 0..<outer {
            for i in 0..<inner {
                for k in 0..<size { line[k] = values[(o * size + k) * inner + i] }
                let out = transform(line)
                for k in 0..<size { result[(o * size + k) * inner + i] = out[k] }
            }
        }
        return try Tensor(shape: shape, float32: result, layout: layout)
    }

    /// Softmax along an axis, numerically stable (the maximum is subtracted first, so
    /// logits of ±1e4 give exact 0 and 1 rather than NaN).
    /// - Parameter axis: the class axis; the last by default.
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing axis.
    public func softmax(alongAxis axis: Int = -1) throws(TensorError) -> Tensor {
        try transformingLines(alongAxis: axis) { line in
            guard let top = line.max() else { return line }
            let exps = line.map { Foundation.exp($0 - top) }
            let total = exps.reduce(Float(0), +)
            return exps.map { $0 / total }
        }
    }

    /// Log-softmax along an axis, `x - max - log(sum(exp(x - max)))`, stable for large logits.
    /// - Parameter axis: the class axis; the last by default.
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing axis.
    public func logSoftmax(alongAxis axis: Int = -1) throws(TensorError) -> Tensor {
        try transformingLines(alongAxis: axis) { line in
            guard let top = line.max() else { return line }
            let shifted = line.map { $0 - top }
            let logTotal = Foundation.log(shifted.reduce(Float(0)) { $0 + Foundation.exp($1) })
            return shifted.map { $0 - logTotal }
        }
    }

    /// The `k` largest values of a tensor holding one row of scores (shape `[C]`, `[1, C]`,
    /// `[1, 1, C]` ...), largest first; ties keep the lower index first.
    /// - Parameter k: how many; at most the number of classes.
    /// - Throws: ``TensorError/shapeMismatch(_:)`` when the tensor holds more than one row
    ///   (use ``topK(_:alongAxis:)``), ``TensorError/outOfRange(_:)`` for a bad `k`.
    public func topK(_ k: Int) throws(TensorError) -> [TopKEntry] {
        guard let classes = shape.last, scalarCount == classes else {
            throw .shapeMismatch("topK(_:) needs one row of scores but the shape is \(shape); use topK(_:alongAxis:) for batches")
        }
        guard (0...classes).contains(k) else { throw .outOfRange("k = \(k) with \(classes) classes") }
        return Self.topIndices(floats, k).map { TopKEntry(index: $0, value: floats[$0]) }
    }

    /// The `k` largest values along an axis and their indices, largest first (ties: lower
    /// index first), as NumPy's `argsort(-x, kind="stable")[..., :k]`.
    /// - Parameters:
    ///   - k: how many per line.
    ///   - axis: the class axis; the last by default.
    /// - Returns: `values` (Float32) and `indices` (Int64), each with the axis shortened to `k`.
    /// - Throws: ``TensorError/outOfRange(_:)`` for a missing axis or a bad `k`.
    public func topK(_ k: Int, alongAxis axis: Int = -1) throws(TensorError) -> (values: Tensor, indices: Tensor) {
        let axis = try resolvedAxis(axis)
        let (outer, size, inner) = split(at: axis)
        guard (0...size).contains(k) else { throw .outOfRange("k = \(k) along an axis of size \(size)") }
        let source = floats
        var values = [Float](repeating: 0, count: outer * k * inner)
        var indices = [Int64](repeating: 0, count: outer * k * inner)
        var line = [Float](repeating: 0, count: size)
        for o in 0..<outer {
            for i in 0..<inner {
                for c in 0..<size { line[c] = source[(o * size + c) * inner + i] }
                for (rank, index) in Self.topIndices(line, k).enumerated() {
                    values[(o * k + rank) * inner + i] = line[index]
                    indices[(o * k + rank) * inner + i] = Int64(index)
                }
            }
        }
        var newShape = shape
        newShape[axis] = k
        return (try Tensor(shape: newShape, float32: values), try Tensor(shape: newShape, storage: .int64(indices)))
    }

    /// Indices of the k largest values, largest first, lower index first when tied.
    /// Uses a small sorted buffer: O(n * k) worst case, O(n) for the usual k <= 5.
    static func topIndices(_ values: [Float], _ k: Int) -> [Int] {
        guard k > 0 else { return [] }
        var best: [Int] = []
        best.reserveCapacity(k + 1)
        for index in values.indices {
            let value = values[index]
            if best.count == k, !(value > values[best[k - 1]]) { continue }
            var position = best.count
            while position > 0, value > values[best[position - 1]] { position -= 1 }
            best.insert(index, at: position)
            if best.count > k { best.removeLast() }
        }
        return best
    }
}
