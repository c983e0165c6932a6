import BenchbookImage
import BenchbookTensor
import Foundation

/// A classifier or other network loaded from a mobile model file, ready to run many times.
///
/// One type for all four formats the course deploys: TorchScript (`.pt`) and PyTorch Lite
/// (`.ptl`) run in libtorch 1.13, TensorFlow Lite (`.tflite`) runs in LiteRT on the CPU
/// through XNNPACK, and ExecuTorch programs (`.pte`) run in the ExecuTorch runtime, XNNPACK
/// for their delegated blocks.
///
/// ```swift
/// let model = try Model(contentsOf: "models/fashion_cnn.ptl")
/// let image = try Image(contentsOfFile: "data/sample_ankle_boot.png").tensor()   // [1, 1, 28, 28]
/// let logits = try model.run(image)
/// ```
///
/// Loading is the slow part; keep the model and call ``run(_:)-(Tensor)`` for each input.
/// A `Model` is not thread-safe: use it from one thread at a time.
public final class Model {
    /// The file the model was loaded from.
    public let path: String
    /// The file's format.
    public let format: ModelFormat
    let runtime: any ModelRuntime

    /// Loads a model file.
    /// - Parameters:
    ///   - path: the model file (`.pt`, `.ptl`, `.tflite` or `.pte`).
    ///   - options: format, threads and quantised engine.
    /// - Throws: ``ModelError`` when the file is missing, damaged or of another format, or
    ///   when the runtime library is missing.
    public init(contentsOf path: String, options: ModelOptions = ModelOptions()) throws(ModelError) {
        self.path = path
        let format = try ModelFormat.detect(path: path, requested: options.format)
        self.format = format
        switch format {
        case .torchScript, .pyTorchLite:
            if let engine = options.quantizedEngine { try TorchModule.setQuantizedEngine(engine) }
            runtime = try TorchModule(path: path, format: format, checkInChild: options.checksInChildProcess)
        case .tensorFlowLite:
            runtime = try LiteRTModel(path: path, threads: options.threads ?? 1, checkInChild: options.checksInChildProcess)
        case .execuTorch:
            runtime = try ExecuTorchProgram(path: path, threads: options.threads, checkInChild: options.checksInChildProcess)
        }
        if let threads = options.threads, format.runsOnLibtorch { try runtime.setThreadCount(threads) }
    }

    /// Loads a model file, choosing its format.
    /// - Parameters:
    ///   - path: the model file.
    ///   - format: the format to read it as, whatever its extension.
    /// - Throws: ``ModelError`` as ``init(contentsOf:options:)``.
    public convenience init(contentsOf path: String, format: ModelFormat) throws(ModelError) {
        try self.init(contentsOf: path, options: ModelOptions(format: format))
    }

    /// The model's inputs, in the order ``run(_:)-([Tensor])`` takes them.
    public var inputs: [TensorDescription] { runtime.inputs }
    /// The model's outputs, in the order ``run(_:)-([Tensor])`` returns them.
    public var outputs: [TensorDescription] { runtime.outputs }
    /// Class names recorded in the file, in output order (the course models record
    /// Fashion-MNIST's or ImageNet's), or `nil` when the file has none.
    public var labels: [String]? { runtime.metadata?.labels }

    /// The preprocessing the file records for a photo (resize, crop, normalisation, layout),
    /// which ``classify(_:preprocessing:labels:)-(Image,_,_)`` uses by default; `nil` when
    /// the file records none.
    public var preprocessing: Preprocessing? { runtime.metadata?.preprocessing }

    /// The note the file records about itself (for example "UNTRAINED weights, for latency
    /// only"), or `nil`.
    public var note: String? { runtime.metadata?.note }

    /// The operators a libtorch model's code calls, sorted (for example
    /// `prepacked::conv2d_clamp_run` in a PyTorch Lite file that `optimize_for_mobile` made,
    /// `aten::_convolution` in a plain TorchScript file); for an ExecuTorch program, what its
    /// `forward` runs (`delegate:XnnpackBackend` for each delegated backend, and operators such as
    /// `aten::convolution.out` that ExecuTorch's kernels run); `nil` for TensorFlow Lite.
    public var operators: [String]? { runtime.operators }

    /// Everything the model says about itself, for display.
    public var summary: ModelDescription {
        ModelDescription(path: path, format: format, inputs: inputs, outputs: outputs, threads: threads,
                         quantizedEngine: quantizedEngine,
                         labels: labels, note: note, threading: runtime.threadingNote)
    }

    /// The CPU thread count this model runs with.
    public var threads: Int { runtime.threadCount }

    /// Sets the CPU thread count. For TensorFlow Lite the model is compiled again with the new
    /// XNNPACK thread pool. ExecuTorch has one thread pool per process and XNNPACK binds a loaded
    /// method to it, so an ExecuTorch model whose count differs from the pool's resizes the pool
    /// before its next run and loads its method again (so does any other ExecuTorch model loaded
    /// on the old pool, before its own next run). libtorch has one intra-op thread count per process: a libtorch
    /// model given a count (here or in ``ModelOptions/threads``) sets it, and sets it again
    /// before a run when another model changed it meanwhile, so models loaded with different
    /// counts each run with their own (switching costs a new thread pool). A
    /// libtorch model whose work runs on libtorch's XNNPACK/QNNPACK pool (PyTorch Lite files
    /// and QNNPACK int8 models) runs its few ATen operators on one OpenMP thread, so the
    /// two pools never compete for the cores (with both at 2 threads, PyTorch Lite ran 20x
    /// slower on a 2-core machine; see results/model-benchmark.md).
    /// - Parameter count: 1 or more.
    /// - Throws: ``ModelError/unsupported(_:)`` for a count below 1, or when recompiling fails.
    public func setThreads(_ count: Int) throws(ModelError) {
        guard count >= 1 else { throw .unsupported("The thread count must be 1 or more, not \(count).") }
        try runtime.setThreadCount(count)
    }

    /// The quantised engine libtorch uses ("qnnpack", "onednn"), or `nil` for TensorFlow Lite and
    /// ExecuTorch.
    public var quantizedEngine: String? { format.runsOnLibtorch ? TorchModule.quantizedEngine : nil }

    /// Chooses libtorch's quantised engine for every libtorch model in the process.
    /// - Parameter name: "qnnpack" (the phones' engine) or "onednn" (x86).
    /// - Throws: ``ModelError/unsupported(_:)`` for TensorFlow Lite and ExecuTorch models or an
    ///   engine this libtorch lacks (``supportedQuantizedEngines`` lists them).
    public func setQuantizedEngine(_ name: String) throws(ModelError) {
        guard format.runsOnLibtorch else {
            throw .unsupported("\(format) has no quantised engine to choose: XNNPACK runs int8 models.")
        }
        try TorchModule.setQuantizedEngine(name)
    }

    /// The quantised engines this libtorch build has.
    public static var supportedQuantizedEngines: [String] { TorchModule.supportedQuantizedEngines }

    /// Runs the model.
    /// - Parameter inputs: one tensor per model input, in order.
    /// - Returns: the output tensors, in order.
    /// - Throws: ``ModelError`` when the inputs do not fit (count, shape, element type) or the
    ///   runtime fails.
    public func run(_ inputs: [Tensor]) throws(ModelError) -> [Tensor] {
        try InputCheck.check(inputs, against: runtime.inputs, path: path)
        return try runtime.run(inputs)
    }

    /// Runs a model with one input and returns its first output.
    /// - Parameter input: the input tensor.
    /// - Returns: the first output tensor.
    /// - Throws: ``ModelError`` as ``run(_:)-([Tensor])``.
    public func run(_ input: Tensor) throws(ModelError) -> Tensor {
        let outputs = try run([input])
        guard let first = outputs.first else { throw .runFailed(path: path, reason: "the model returned no tensor") }
        return first
    }

    /// Times the model in the runtime's own loop (libtorch: a C++ loop calling `forward`),
    /// the baseline Benchbook's ``run(_:)-([Tensor])`` is compared with.
    /// - Parameters:
    ///   - inputs: the inputs for every run.
    ///   - iterations: the number of timed runs.
    /// - Returns: seconds per run, or `nil` when this runtime has no own loop here
    ///   (LiteRT's baseline is the Python interpreter, timed by a script).
    /// - Throws: ``ModelError`` as ``run(_:)-([Tensor])``.
    public func timeRuntimeLoop(_ inputs: [Tensor], iterations: Int) throws(ModelError) -> [Double]? {
        try InputCheck.check(inputs, against: runtime.inputs, path: path)
        return try runtime.timeOwnLoop(inputs, iterations: iterations)
    }
}
