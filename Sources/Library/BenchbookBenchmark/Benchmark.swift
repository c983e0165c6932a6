/// Measures how long a piece of code takes, the way mobile benchmark tools do.
///
/// ```swift
/// let logits = try Tensor(shape: [1, 1000], float32: (0..<1000).map { Float($0 % 7) })
/// let result = try Benchmark("softmax", options: .quick).run { _ = try logits.softmax() }
/// display(result)                        // median, p90, ... as a table
///
/// // A model: load time, then runs, for 1 and 2 threads.
/// let input = try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0.5, count: 784))
/// let table = try Benchmark("fashion_cnn.ptl", options: .quick).sweep(threads: [1, 2],
///     setUp: { threads in try Model(contentsOf: "models/fashion_cnn.ptl", options: ModelOptions(threads: threads)) },
///     measure: { model in _ = try model.run(input) })
/// ```
///
/// The set-up closure receives the thread count, so any model type plugs in without this
/// module knowing about it. Between runs the benchmark checks for a kernel interrupt and
/// stops with `InterruptedError`; runs longer than a second show a progress line.
public struct Benchmark: Sendable {
    /// Shown in progress lines and results, and used in record file names.
    public var name: String
    /// Warm-up, run counts, durations and threads.
    public var options: BenchmarkOptions

    /// Creates a benchmark.
    /// - Parameters:
    ///   - name: what is measured, for example "mobilenet_v2 fp32".
    ///   - options: warm-up and run rules; ``BenchmarkOptions/standard`` by default.
    public init(_ name: String = "closure", options: BenchmarkOptions = .standard) {
        self.name = name
        self.options = options
    }

    /// Measures a closure: one first run, warm-up, then the measured runs.
    /// - Parameter body: the code to time; it runs many times.
    /// - Returns: the per-run times and their statistics.
    /// - Throws: `InterruptedError` when the kernel is interrupted, ``BenchmarkError`` for
    ///   invalid options, or whatever `body` throws.
    public func run(_ body: () throws -> Void) throws -> BenchmarkResult {
        try validate()
        var recorder = MeasurementLoop(name: name, options: options)
        return try recorder.measure(initSeconds: nil, body)
    }

    /// Measures a model (or anything with a costly set-up): times `setUp` once as the
    /// initialisation, then measures `measure` on what it returned.
    /// - Parameters:
    ///   - setUp: loads or builds the subject for the given thread count
    ///     (``BenchmarkOptions/threads``); timed once as the init time.
    ///   - measure: one inference (or unit of work) on the subject.
    /// - Returns: the result, with ``BenchmarkResult/initSeconds`` set.
    /// - Throws: `InterruptedError`, ``BenchmarkError``, or what the closures throw.
    public func run<Subject>(
        setUp: (_ threads: Int) throws -> Subject,
        measure: (Subject) throws -> Void
    ) throws -> BenchmarkResult {
        try validate()
        let start = monotonicNanoseconds()
        let subject = try setUp(options.threads)
        let initSeconds = seconds(monotonicNanoseconds() &- start)
        var recorder = MeasurementLoop(name: name, options: options)
        return try recorder.measure(initSeconds: initSeconds) { try measure(subject) }
    }

    func validate() throws {
        if options.minimumRuns < 1 { throw BenchmarkError.invalidOptions("minimumRuns is \(options.minimumRuns)") }
        if options.innerIterations < 1 { throw BenchmarkError.invalidOptions("innerIterations is \(options.innerIterations)") }
        if options.warmupRuns < 0 { throw BenchmarkError.invalidOptions("warmupRuns is \(options.warmupRuns)") }
        if options.threads < 1 { throw BenchmarkError.invalidOptions("threads is \(options.threads)") }
        if options.minimumSeconds < 0 || options.minimumWarmupSeconds < 0 || options.maximumSeconds < 0 {
            throw BenchmarkError.invalidOptions("a duration is negative")
        }
    }
}
