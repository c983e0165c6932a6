/// The outcome of one benchmark: every measured run time and what they add up to.
///
/// Shows itself in a notebook as a small table (HTML) or one line of text.
public struct BenchmarkResult: Sendable, Equatable, Codable {
    /// What was measured.
    public var name: String
    /// The rules the benchmark ran with (including the thread count).
    public var options: BenchmarkOptions
    /// Time of the set-up closure (model load and initialisation), when there was one.
    public var initSeconds: Double?
    /// Time of the very first run, before any warm-up.
    public var firstRunSeconds: Double
    /// How many warm-up runs were made.
    public var warmupRuns: Int
    /// How long the warm-up took.
    public var warmupSeconds: Double
    /// Every measured run time in seconds, in the order measured.
    public var samples: [Double]
    /// Wall time of the measured phase.
    public var measuredSeconds: Double
    /// True when ``BenchmarkOptions/maximumSeconds`` stopped the runs before
    /// ``BenchmarkOptions/minimumRuns`` was reached.
    public var stoppedAtTimeLimit: Bool
    /// Peak resident memory of the process after the runs (the high-water mark since the
    /// process started, so it includes everything loaded before).
    public var peakResidentBytes: Int
    /// Statistics of ``samples``.
    public var statistics: LatencyStatistics

    /// Creates a result from measurements (the benchmark does this; tests and records may too).
    public init(
        name: String, options: BenchmarkOptions, initSeconds: Double?, firstRunSeconds: Double,
        warmupRuns: Int, warmupSeconds: Double, samples: [Double], measuredSeconds: Double,
        stoppedAtTimeLimit: Bool, peakResidentBytes: Int
    ) {
        self.name = name
        self.options = options
        self.initSeconds = initSeconds
        self.firstRunSeconds = firstRunSeconds
        self.warmupRuns = warmupRuns
        self.warmupSeconds = warmupSeconds
        self.samples = samples
        self.measuredSeconds = measuredSeconds
        self.stoppedAtTimeLimit = stoppedAtTimeLimit
        self.peakResidentBytes = peakResidentBytes
        self.statistics = LatencyStatistics(samples: samples)
    }

    /// The thread count the runs used.
    public var threads: Int { options.threads }

    /// One line: p90 first (the headline figure), then median, mean ± std and run count.
    public var summary: String {
        let s = statistics
        var text = "p90 \(DurationFormat.string(s.p90)), median \(DurationFormat.string(s.median)), "
            + "mean \(DurationFormat.string(s.mean)) ± \(DurationFormat.string(s.standardDeviation)) "
            + "over \(s.count) runs"
        if options.innerIterations > 1 { text += " of \(options.innerIterations) calls" }
        if stoppedAtTimeLimit { text += " (stopped at the \(DurationFormat.string(options.maximumSeconds)) limit)" }
        return text
    }

    /// Compares this result with a baseline (ratio of medians and a noise test).
    /// - Parameter baseline: the result to compare against.
    public func compared(with baseline: BenchmarkResult) -> BenchmarkComparison {
        BenchmarkComparison(
            baselineName: baseline.name, baseline: baseline.samples,
            candidateName: name, candidate: samples)
    }
}
