import BenchbookBenchmark
import BenchbookTensor

/// What each runtime behind ``Model`` provides. Internal: notebooks use ``Model``.
protocol ModelRuntime: AnyObject {
    /// The model's inputs, in call order.
    var inputs: [TensorDescription] { get }
    /// The model's outputs, in result order.
    var outputs: [TensorDescription] { get }
    /// What the file records about itself (`benchbook.json`), if anything.
    var metadata: ModelMetadata? { get }
    /// The thread count the runtime uses for this model.
    var threadCount: Int { get }
    /// Which thread pool the model's work runs on, for its description.
    var threadingNote: String? { get }
    /// The operators the model's code calls, when the runtime can list them.
    var operators: [String]? { get }
    /// Changes the thread count.
    func setThreadCount(_ count: Int) throws(ModelError)
    /// Runs the model on inputs already checked against ``inputs``.
    func run(_ inputs: [Tensor]) throws(ModelError) -> [Tensor]
    /// Times `iterations` runs in the runtime's own loop, without Benchbook in between,
    /// in seconds per run; `nil` when the runtime has no such loop here.
    func timeOwnLoop(_ inputs: [Tensor], iterations: Int) throws(ModelError) -> [Double]?
    /// Runs the model `runs` times with the runtime's profiler on, after a warm-up, on inputs
    /// already checked against ``inputs``.
    func profile(_ inputs: [Tensor], runs: Int, title: String) throws(ModelError) -> OperatorProfile
}
