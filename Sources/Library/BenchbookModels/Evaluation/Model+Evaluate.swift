import BenchbookRuntime
import BenchbookTensor
import Foundation

/// Why an evaluation could not start.
public enum EvaluationError: Error, CustomStringConvertible, Equatable {
    /// The images tensor and the labels do not fit together.
    case mismatch(String)

    /// A plain-text rendering.
    public var description: String {
        switch self {
        case .mismatch(let text):
            return "Cannot evaluate: \(text). Pass images as [N, 28, 28], [N, 1, 28, 28] or [N, 28, 28, 1] "
                + "float32 in [0, 1] with one label per image."
        }
    }
}

extension Model {
    /// Classifies every image of a labelled set and counts the results.
    ///
    /// Images go to the model in batches when its batch axis is open (`-1`), else one by
    /// one. Each batch is reshaped to the model's input shape (the course images are 28x28
    /// with one channel, so NCHW and NHWC hold the same memory) and quantised with the
    /// model's input parameters when the model takes int8 or uint8. A progress line updates
    /// in place; an interrupt from the notebook stops between batches.
    ///
    /// - Parameters:
    ///   - images: `[N, H, W]`, `[N, 1, H, W]` or `[N, H, W, 1]` float32 in [0, 1].
    ///   - labels: the true class of each image.
    ///   - classNames: names of the classes in label order; defaults to the model's labels.
    ///   - batchSize: images per call when the model allows batches.
    ///   - showsProgress: show and update a progress display.
    /// - Returns: accuracy, confusion matrix and each image's answer.
    /// - Throws: ``EvaluationError`` when images and labels do not fit, ``ModelError`` when
    ///   a run fails, `InterruptedError` when the notebook was interrupted.
    public func evaluate(images: Tensor, labels: [Int], classNames: [String]? = nil, batchSize: Int = 100,
                         showsProgress: Bool = true) throws -> EvaluationResult {
        let count = images.shape.first ?? 0
        guard images.elementType == .float32 else {
            throw EvaluationError.mismatch("the images are \(images.elementType), not float32")
        }
        guard count == labels.count else {
            throw EvaluationError.mismatch("\(count) images but \(labels.count) labels")
        }
        let perImage = count == 0 ? 0 : images.scalarCount / count
        guard let input = inputs.first else { throw EvaluationError.mismatch("the model has no input") }
        let modelShape = input.shape ?? [-1] + Array(images.shape.dropFirst())
        let fixed = modelShape.dropFirst().reduce(1) { $0 * max($1, 1) }
        guard fixed == perImage else {
            throw ModelError.inputShape(path: path, input: input.name ?? "#0", expected: modelShape,
                                        given: [1] + Array(images.shape.dropFirst()))
        }
        let batch = (modelShape.first ?? -1) < 0 ? max(1, batchSize) : modelShape[0]
        let names = classNames ?? self.labels ?? []
        let classes = max(names.count, (labels.max() ?? -1) + 1, outputs.first?.shape?.last ?? 0)
        var confusion = [[Int]](repeating: [Int](repeating: 0, count: classes), count: classes)
        var predictions: [Int] = []
        predictions.reserveCapacity(count)
        let floats = images.floats
        let progress = showsProgress ? DisplayHandle(showing: "evaluating \(fileName): 0 of \(count)") : nil
        let start = Date()
        var done = 0
        while done < count {
            try Interrupt.check("evaluation of \(fileName)")
            let size = min(batch, count - done)
            let slice = Array(floats[done * perImage ..< (done + size) * perImage])
            let shape = [size] + modelShape.dropFirst().map { max($0, 1) }
            let output = try run(quantized(slice, shape: shape, for: input))
            let scores = output.floats
            let width = scores.count / size
            for item in 0..<size {
                let row = scores[item * width ..< (item + 1) * width]
                let predicted = row.indices.max { row[$0] < row[$1] }! - item * width
                let truth = labels[done + item]
                predictions.append(predicted)
                if truth >= 0, truth < classes, predicted < classes { confusion[truth][predicted] += 1 }
            }
            done += size
            if let progress, done == count || (done / size) % 10 == 0 {
                progress.update(String(format: "evaluating %@: %d of %d (%.0f %%)", fileName, done, count,
                                       Double(done) / Double(count) * 100))
            }
        }
        return EvaluationResult(modelPath: path, classNames: names, confusion: confusion,
                                seconds: Date().timeIntervalSince(start), batchSize: batch,
                                predictions: predictions, labels: labels)
    }

    private var fileName: String { (path as NSString).lastPathComponent }

    /// A batch as the model's input type: float32 as is, int8/uint8 quantised with the
    /// input's scale and zero point (round to nearest, clamp).
    private func quantized(_ values: [Float], shape: [Int], for input: TensorDescription) throws -> Tensor {
        let layout = input.layout
        switch input.elementType {
        case .int8?, .uint8?:
            guard let q = input.quantization, q.scale > 0 else {
                throw ModelError.unsupported("\(path) takes \(input.elementType!) input without quantisation parameters.")
            }
            let low: Float = input.elementType == .int8 ? -128 : 0, high: Float = input.elementType == .int8 ? 127 : 255
            let stored = values.map { min(max(($0 / q.scale).rounded(.toNearestOrEven) + Float(q.zeroPoint), low), high) }
            if input.elementType == .int8 {
                return try Tensor(shape: shape, storage: .int8(stored.map { Int8($0) }), layout: layout)
            }
            return try Tensor(shape: shape, storage: .uint8(stored.map { UInt8($0) }), layout: layout)
        default:
            return try Tensor(shape: shape, storage: .float32(values), layout: layout)
        }
    }
}
