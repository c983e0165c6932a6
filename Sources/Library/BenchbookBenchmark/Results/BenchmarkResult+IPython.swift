extension BenchmarkResult {
    /// The line IPython's `%timeit` prints: "17.9 ns ± 0.4 ns per loop (mean ± std. dev. of
    /// 7 runs, 1,024 loops each)". A run is one sample; a loop is one call of the body.
    public var perLoopSummary: String {
        let s = statistics
        let loops = options.innerIterations
        return "\(DurationFormat.string(s.mean)) ± \(DurationFormat.string(s.standardDeviation)) per loop "
            + "(mean ± std. dev. of \(CountFormat.string(s.count)) run\(s.count == 1 ? "" : "s"), "
            + "\(CountFormat.string(loops)) loop\(loops == 1 ? "" : "s") each)"
    }
}
