/// Text for figures with their intervals, and for the contention flag.
public enum IntervalFormat {
    /// A duration with its interval in one unit, for example "18.2 ms (17.9–18.6)".
    /// - Parameter interval: times in seconds.
    public static func duration(_ interval: ConfidenceInterval) -> String {
        let top = max(abs(interval.estimate), abs(interval.upper))
        let (unit, factor) = top >= 1 ? ("s", 1.0) : top >= 1e-3 ? ("ms", 1e3) : top >= 1e-6 ? ("µs", 1e6) : ("ns", 1e9)
        let decimals = decimalsFor(interval.estimate * factor)
        func number(_ value: Double) -> String { DurationFormat.fixed(value * factor, decimals: decimals) }
        return "\(number(interval.estimate)) \(unit) (\(number(interval.lower))–\(number(interval.upper)))"
    }

    /// A ratio with its interval, for example "1.42× (95 % interval 1.35–1.50×)".
    public static func ratio(_ interval: ConfidenceInterval) -> String {
        "\(DurationFormat.fixed(interval.estimate, decimals: BenchmarkComparison.digits(interval)))× (\(BenchmarkComparison.intervalText(interval)))"
    }

    /// Decimals that keep 3 significant figures.
    static func decimalsFor(_ value: Double) -> Int {
        let magnitude = abs(value)
        return magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2
    }
}

/// How tables show ``CPUContention``.
enum ContentionFormat {
    /// "1.9 of 2" or "0.4 of 2 ⚠" (contended), "–" when not measured.
    static func cell(_ contention: CPUContention?) -> String {
        guard let contention else { return "–" }
        let text = "\(DurationFormat.fixed(contention.freeCores, decimals: 1)) of \(contention.cores)"
        return contention.isContended ? text + " ⚠" : text
    }

    static let footnote = CPUContention.mark + " " + CPUContention.markMeaning
}
