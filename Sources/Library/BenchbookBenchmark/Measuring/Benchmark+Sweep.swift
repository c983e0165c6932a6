extension Benchmark {
    /// Measures the same code at several thread counts, one after the other (to compare them,
    /// measure in turns: ``interleave(_:)`` with one variant per thread count).
    /// - Parameters:
    ///   - threads: the thread counts, in the order to measure.
    ///   - setUp: builds the subject for a thread count (timed as init time each time).
    ///   - measure: one run on the subject.
    /// - Returns: one row per thread count.
    /// - Throws: ``BenchmarkError/emptySweep``, `InterruptedError`, or what the closures throw.
    public func sweep<Subject>(
        threads: [Int],
        setUp: (_ threads: Int) throws -> Subject,
        measure: (Subject) throws -> Void
    ) throws -> BenchmarkTable {
        guard !threads.isEmpty else { throw BenchmarkError.emptySweep }
        var results: [BenchmarkResult] = []
        for count in threads {
            let benchmark = Benchmark(name, options: options.with(threads: count))
            results.append(try benchmark.run(setUp: setUp, measure: measure))
        }
        return BenchmarkTable(title: name, results: results)
    }

    /// Measures several named variants (models, preprocessing choices, back ends) with the
    /// same options, one after the other. Each variant's name becomes its row label. To
    /// compare variants, measure them in turns instead (``interleave(_:)``): then whatever the
    /// machine does meanwhile hits all of them alike.
    /// - Parameter variants: what to measure, in order.
    /// - Returns: one row per variant.
    /// - Throws: ``BenchmarkError/emptySweep``, `InterruptedError`, or what the variants throw.
    public func sweep(_ variants: [BenchmarkVariant]) throws -> BenchmarkTable {
        guard !variants.isEmpty else { throw BenchmarkError.emptySweep }
        var results: [BenchmarkResult] = []
        for variant in variants {
            var variantOptions = options
            if let threads = variant.threads { variantOptions.threads = threads }
            let benchmark = Benchmark(variant.name, options: variantOptions)
            if variant.hasSetUp {
                results.append(try benchmark.run(setUp: variant.prepare, measure: { run in try run() }))
            } else {
                // Nothing to load: no init time, as for a plain closure.
                results.append(try benchmark.run(try variant.prepare(variantOptions.threads)))
            }
        }
        return BenchmarkTable(title: name, results: results)
    }
}

/// One entry of a sweep over named variants: a set-up and the run it measures.
///
/// ```swift
/// let input = try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0.5, count: 784))
/// let variant = BenchmarkVariant("fp32",
///     setUp: { threads in try Model(contentsOf: "models/fashion_cnn.tflite", options: ModelOptions(threads: threads)) },
///     measure: { model in _ = try model.run(input.reshaped(to: [1, 28, 28, 1])) })
/// ```
public struct BenchmarkVariant {
    /// The row label.
    public var name: String
    /// Thread count for this variant; the benchmark's own when nil.
    public var threads: Int?
    /// Builds the subject and returns the closure that runs it once.
    let prepare: (Int) throws -> () throws -> Void
    /// Whether there is a set-up to time as init.
    let hasSetUp: Bool

    /// Creates a variant with a set-up whose time is measured as init time.
    /// - Parameters:
    ///   - name: the row label.
    ///   - threads: thread count for this variant, or nil for the benchmark's.
    ///   - setUp: builds the subject for a thread count.
    ///   - measure: one run on the subject.
    public init<Subject>(
        _ name: String, threads: Int? = nil,
        setUp: @escaping (_ threads: Int) throws -> Subject,
        measure: @escaping (Subject) throws -> Void
    ) {
        self.name = name
        self.threads = threads
        self.hasSetUp = true
        self.prepare = { threads in
            let subject = try setUp(threads)
            return { try measure(subject) }
        }
    }

    /// Creates a variant that only runs a closure (no set-up).
    /// - Parameters:
    ///   - name: the row label.
    ///   - threads: thread count recorded for this variant, or nil for the benchmark's.
    ///   - body: the code to time.
    public init(_ name: String, threads: Int? = nil, body: @escaping () throws -> Void) {
        self.name = name
        self.threads = threads
        self.hasSetUp = false
        self.prepare = { _ in body }
    }
}
