extension BenchmarkResult {
    /// The line IPython's `%timeit` prints: "17.9 ns ± 0.4 ns per loop (mean ± std. dev. of
    /// 7 runs, 1,024 loops each)". A run is one sample; a loop is one call of the body.
    public var perLoopSummary: String {
        let s = statistics
        let loops = options.innerIterations
        return "\(DurationFormat.string(s.mean)) ± \(DurationFormat.string(s.standardDeviation)) per loop "
            + "(mean ± std. dev. of \(Self.grouped(s.count)) run\(s.count == 1 ? "" : "s"), "
            + "\(Self.grouped(loops)) loop\(loops == 1 ? "" : "s") each)"
    }

    /// An integer with thousands separators, as IPython writes loop counts.
    private static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
