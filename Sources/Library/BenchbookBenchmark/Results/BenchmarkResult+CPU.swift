extension BenchmarkResult {
    /// Mean CPU-seconds per run over all threads (user + system) with its 95 % bootstrap
    /// interval: on a CPU, the share of the machine's energy a run costs. `nil` when not
    /// measured (older records).
    ///
    /// A mean, not a median: costs add up, and N runs cost N times the mean.
    public var cpuPerRun: ConfidenceInterval? {
        guard let cpuSamples, !cpuSamples.isEmpty else { return nil }
        return Bootstrap.mean(of: cpuSamples)
    }

    /// How many cores the runs kept busy on average: CPU time over wall time of the measured
    /// runs (1.9 for two threads that both worked the whole run; below 1 when the run waited).
    /// `nil` when CPU time was not measured.
    public var coresBusy: Double? {
        guard let cpuSamples, !cpuSamples.isEmpty else { return nil }
        let wall = samples.reduce(0, +)
        return wall > 0 ? cpuSamples.reduce(0, +) / wall : nil
    }

    /// The ratio of this result's mean CPU-seconds per run to `baseline`'s, with its 95 %
    /// interval; round by round when both were measured in the same turns
    /// (``Benchmark/interleave(_:)``), as ``compared(with:)`` pairs latencies.
    ///
    /// ```swift
    /// let table = try Benchmark("threads", options: .quick).interleave([
    ///     BenchmarkVariant("sum", threads: 1, body: { _ = (0..<20_000).reduce(0, +) }),
    ///     BenchmarkVariant("sum", threads: 2, body: { _ = (0..<20_000).reduce(0, +) }),
    /// ])
    /// table.results[1].cpuRatio(to: table.results[0])   // about 1: the closure ignores threads
    /// ```
    /// - Parameter baseline: the result to divide by.
    /// - Returns: the ratio with its interval; `nil` when either side has no CPU times.
    public func cpuRatio(to baseline: BenchmarkResult) -> ConfidenceInterval? {
        guard let cpuSamples, let base = baseline.cpuSamples, !cpuSamples.isEmpty, !base.isEmpty else { return nil }
        let paired = cpuSamples.count == base.count
            && (interleavedWith?.contains(baseline.label) ?? false || baseline.interleavedWith?.contains(label) ?? false)
        return Bootstrap.ratioOfMeans(candidate: cpuSamples, baseline: base, paired: paired)
    }
}
