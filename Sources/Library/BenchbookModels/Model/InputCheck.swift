import BenchbookTensor

/// Checks inputs against a model's input descriptions before they reach a runtime.
enum InputCheck {
    /// - Throws: ``ModelError`` naming the first input that does not fit.
    static func check(_ inputs: [Tensor], against expected: [TensorDescription], path: String) throws(ModelError) {
        guard !expected.isEmpty else { return }
        guard inputs.count == expected.count else {
            throw .inputCount(path: path, expected: expected.count, given: inputs.count)
        }
        for (index, (tensor, description)) in zip(inputs, expected).enumerated() {
            let name = description.name ?? "#\(index)"
            if let type = description.elementType, type != tensor.elementType {
                throw .inputType(path: path, input: name, expected: type, given: tensor.elementType)
            }
            if let shape = description.shape, !fits(tensor.shape, shape) {
                throw .inputShape(path: path, input: name, expected: shape, given: tensor.shape)
            }
        }
    }

    /// True when `given` has the rank of `expected` and equal sizes where `expected` is not -1.
    static func fits(_ given: [Int], _ expected: [Int]) -> Bool {
        given.count == expected.count && zip(given, expected).allSatisfy { $1 < 0 || $0 == $1 }
    }
}
