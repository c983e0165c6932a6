/// How long a benchmark warms up and how many runs it measures.
///
/// A benchmark does one first run (timed on its own: caches, lazy initialisation, JIT
/// and allocator warm-up show up here), then warm-up runs until both ``warmupRuns`` and
/// ``minimumWarmupSeconds`` are reached, then measured runs until both ``minimumRuns``
/// and ``minimumSeconds`` are reached, stopping early only at ``maximumSeconds``.
public struct BenchmarkOptions: Sendable, Equatable, Codable {
    /// Warm-up runs after the first run (not measured).
    public var warmupRuns: Int
    /// Minimum warm-up time in seconds.
    public var minimumWarmupSeconds: Double
    /// Minimum number of measured runs.
    public var minimumRuns: Int
    /// Minimum measured time in seconds.
    public var minimumSeconds: Double
    /// Stop measuring after this many seconds even when ``minimumRuns`` is not reached
    /// (the result then has fewer runs; it says so).
    public var maximumSeconds: Double
    /// Calls of the closure per sample. 1 times each call; more divides a batch's time by
    /// its size, for closures so short that the clock read would dominate (`%timeit`).
    public var innerIterations: Int
    /// The thread count the measured code uses, handed to the set-up closure and recorded.
    public var threads: Int
    /// Whether a long run shows and updates a progress line in the notebook.
    public var showsProgress: Bool
    /// The most samples a result keeps (and a record writes). Past it, neighbouring samples
    /// are summarised two by two, each then the mean of twice as many runs, so the runs of
    /// a body that takes nanoseconds (`%benchmark` over `1 + 1` makes millions of them a
    /// second, a record of hundreds of megabytes) cost bounded memory and a bounded record, and every run is
    /// still counted (``BenchmarkResult/runCount``).
    public var maximumSamples: Int

    /// Creates options; every parameter has the ``standard`` default.
    public init(
        warmupRuns: Int = 1, minimumWarmupSeconds: Double = 0.5,
        minimumRuns: Int = 50, minimumSeconds: Double = 1.0, maximumSeconds: Double = 150,
        innerIterations: Int = 1, threads: Int = 1, showsProgress: Bool = true,
        maximumSamples: Int = BenchmarkOptions.defaultMaximumSamples
    ) {
        self.warmupRuns = warmupRuns
        self.minimumWarmupSeconds = minimumWarmupSeconds
        self.minimumRuns = minimumRuns
        self.minimumSeconds = minimumSeconds
        self.maximumSeconds = maximumSeconds
        self.innerIterations = innerIterations
        self.threads = threads
        self.showsProgress = showsProgress
        self.maximumSamples = maximumSamples
    }

    /// ``maximumSamples`` unless given: 100,000 samples, about 2 MB in a record.
    public static let defaultMaximumSamples = 100_000

    enum CodingKeys: String, CodingKey {
        case warmupRuns, minimumWarmupSeconds, minimumRuns, minimumSeconds, maximumSeconds, innerIterations, threads
        case showsProgress, maximumSamples
    }

    /// Reads options from a record; records written before the sample cap have none.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        warmupRuns = try c.decode(Int.self, forKey: .warmupRuns)
        minimumWarmupSeconds = try c.decode(Double.self, forKey: .minimumWarmupSeconds)
        minimumRuns = try c.decode(Int.self, forKey: .minimumRuns)
        minimumSeconds = try c.decode(Double.self, forKey: .minimumSeconds)
        maximumSeconds = try c.decode(Double.self, forKey: .maximumSeconds)
        innerIterations = try c.decode(Int.self, forKey: .innerIterations)
        threads = try c.decode(Int.self, forKey: .threads)
        showsProgress = try c.decode(Bool.self, forKey: .showsProgress)
        maximumSamples = try c.decodeIfPresent(Int.self, forKey: .maximumSamples) ?? Self.defaultMaximumSamples
    }

    /// TensorFlow Lite `benchmark_model`'s defaults: 1 warm-up run and at least 0.5 s of
    /// warm-up, then at least 50 runs and 1 s, at most 150 s.
    public static let standard = BenchmarkOptions()

    /// MLPerf Mobile's single-stream rule: at least 1024 queries and 60 s; report p90.
    public static let singleStream = BenchmarkOptions(
        warmupRuns: 1, minimumWarmupSeconds: 0.5, minimumRuns: 1024, minimumSeconds: 60,
        maximumSeconds: 600)

    /// A short run for exploring in a notebook: 10 runs and 0.2 s after 0.1 s of warm-up.
    public static let quick = BenchmarkOptions(
        warmupRuns: 1, minimumWarmupSeconds: 0.1, minimumRuns: 10, minimumSeconds: 0.2,
        maximumSeconds: 30)

    /// Returns a copy with a different thread count.
    /// - Parameter threads: the thread count to hand to set-up and record.
    public func with(threads: Int) -> BenchmarkOptions {
        var copy = self
        copy.threads = threads
        return copy
    }
}
