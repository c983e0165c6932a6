import BenchbookRuntime

/// The comparison in words. Every phrase carries the interval its verdict was computed from,
/// in one of four forms that `scripts/notebooks/check_claims.py` reads back and checks:
///
/// - "1.42× faster than B (95 % interval 1.35–1.50×)" (and *slower*; measured apart, the
///   parenthesis adds "; measured apart, clear of the ±5 % drift band")
/// - "equivalent to B within ±5 % (time ratio 0.99×, 95 % interval 0.97–1.02×)"
/// - "undecided against B (time ratio 0.95×, 95 % interval 0.79–1.14×: it includes 1 and
///   reaches outside ±5 %; if the ratio stays at 0.95×, roughly 140 rounds instead of 15 would
///   decide it)"
extension BenchmarkComparison {
    /// The comparison as a clause naming the baseline, for a table cell.
    /// - Parameter baseline: how to name the baseline; ``baselineName`` when nil.
    public func phrase(than baseline: String? = nil) -> String {
        let other = baseline ?? baselineName
        switch verdict {
        case .faster:
            return "\(factor(speedup.estimate, as: speedup)) faster than \(other) (\(intervalText(speedup))\(driftNote))"
        case .slower:
            return "\(factor(medianRatio, as: medianRatioInterval)) slower than \(other) (\(intervalText(medianRatioInterval))\(driftNote))"
        case .equivalent:
            return "equivalent to \(other) within \(rule.bandText) (\(ratioText))"
        case .undecided:
            return "undecided against \(other) (\(ratioText): \(undecidedDetail))"
        }
    }

    /// The comparison as a sentence naming both sides, for example "TFLite fp32 · 2 threads is
    /// 1.42× faster than TFLite fp32 · 1 thread (95 % interval 1.35–1.50×)." or "A and B are
    /// equivalent within ±5 % (time ratio 0.99×, 95 % interval 0.97–1.02×)." or "A and B:
    /// undecided (time ratio 0.95×, 95 % interval 0.79–1.14×: …)."
    /// - Parameters:
    ///   - candidate: how to name the candidate; ``candidateName`` when nil.
    ///   - baseline: how to name the baseline; ``baselineName`` when nil.
    public func sentence(_ candidate: String? = nil, than baseline: String? = nil) -> String {
        let subject = candidate ?? candidateName, other = baseline ?? baselineName
        switch verdict {
        case .faster, .slower:
            return "\(subject) is \(phrase(than: other))."
        case .equivalent:
            return "\(subject) and \(other) are equivalent within \(rule.bandText) (\(ratioText))."
        case .undecided:
            return "\(subject) and \(other): undecided (\(ratioText): \(undecidedDetail))."
        }
    }

    /// The ``sentence(_:than:)`` with the rank test beside it, for example "b is 1.25× slower
    /// than a (95 % interval 1.20–1.31×); rank test on the two samples: Mann–Whitney p <
    /// 0.0001". The verdict is stated once, by the sentence: a rank test can be significant
    /// for a difference too small to matter, such as drift between two runs measured apart.
    public var summary: String {
        let p = test.pValue < 1e-4 ? "p < 0.0001" : "p = \(DurationFormat.fixed(test.pValue, decimals: 4))"
        return "\(sentence().dropLast()); rank test on the two samples: Mann–Whitney \(p)"
    }

    /// "; measured apart, clear of the ±5 % drift band" for a difference measured apart.
    private var driftNote: String { apartNote + (processes.map { "; interval across \($0) processes" } ?? "") }

    private var apartNote: String {
        if case .apart = rule.relation { return "; measured apart, clear of the \(rule.bandText) run-to-run spread measured on this processor" }
        return isInterleaved ? "" : "; measured apart, clear of the \(rule.bandText) drift band"
    }

    /// "time ratio 0.95×, 95 % interval 0.79–1.14×".
    private var ratioText: String { "time ratio \(factor(medianRatio, as: medianRatioInterval)), \(intervalText(medianRatioInterval))" }

    /// Why the interval decides nothing, and what would.
    private var undecidedDetail: String {
        if rule.cannotDecide { return rule.undecidedReason(medianRatioInterval) }
        let unit = processes != nil ? (isInterleaved ? "process rounds" : "processes each") : isInterleaved ? "rounds" : "runs each"
        let decide: String
        if let needed = runsToDecide {
            decide = needed > 100 * max(processes ?? runs, 1)
                ? "over 100 times as many \(unit) as this run's \(processes ?? runs) would be needed to decide it"
                : "if the ratio stays at \(factor(medianRatio, as: medianRatioInterval)), roughly \(needed) \(unit) instead of \(processes ?? runs) would decide it"
        } else {
            decide = "the median ratio sits on the band's edge, so more \(unit) would not decide it"
        }
        let turns = isInterleaved ? "" : ", or measuring both in turns"
        return "\(rule.undecidedReason(medianRatioInterval)); \(decide)\(turns.isEmpty ? "" : turns)"
    }

    /// A ratio as "1.42×", with as many decimals as `interval`'s bounds are shown with (so a
    /// figure never reads as outside its own interval).
    func factor(_ value: Double, as interval: ConfidenceInterval) -> String {
        DurationFormat.fixed(value, decimals: Self.digits(interval, edges: edges)) + "×"
    }

    /// "95 % interval 1.35–1.50×", with three decimals where two would show a bound on an edge
    /// of the verdict (1 or the band's edges), so the printed figures always allow its verdict.
    func intervalText(_ interval: ConfidenceInterval) -> String { Self.intervalText(interval, edges: edges) }

    /// The ratios a verdict turns on: 1 and the band's edges.
    private var edges: [Double] { [1, rule.upperEdge, rule.lowerEdge] }

    /// A ratio as "1.42×", with three decimals within 0.005 of one of `edges`.
    static func factor(_ value: Double, edges: [Double] = defaultEdges) -> String {
        DurationFormat.fixed(value, decimals: decimals(value, edges: edges)) + "×"
    }

    /// "95 % interval 1.35–1.50×", with three decimals or more when a figure would round onto one of `edges` at two.
    static func intervalText(_ interval: ConfidenceInterval, edges: [Double] = defaultEdges) -> String {
        let digits = digits(interval, edges: edges)
        return "\(interval.levelText) interval \(DurationFormat.fixed(interval.lower, decimals: digits))–"
            + "\(DurationFormat.fixed(interval.upper, decimals: digits))×"
    }

    /// The decimals an interval's figures are all shown with: three or more when any is near an edge.
    static func digits(_ interval: ConfidenceInterval, edges: [Double] = defaultEdges) -> Int {
        [interval.lower, interval.upper, interval.estimate].map { decimals($0, edges: edges) }.max() ?? 2
    }

    /// 1 and the default band's edges.
    static let defaultEdges: [Double] = {
        let rule = VerdictRule(measuredApart: false)
        return [1, rule.upperEdge, rule.lowerEdge]
    }()

    /// Two decimals; three within 0.005 of an edge, and more (up to six) while the value would
    /// still print as the edge itself, so a bound that clears an edge never reads as on it
    /// (a lower bound of 1.0003 under *slower* prints as "1.0003", not "1.000").
    private static func decimals(_ value: Double, edges: [Double]) -> Int {
        guard let edge = edges.first(where: { abs(value - $0) <= 0.0055 }) else { return 2 }
        var places = 3
        while places < 6, value != edge,
              DurationFormat.fixed(value, decimals: places) == DurationFormat.fixed(edge, decimals: places) {
            places += 1
        }
        return places
    }
}

extension BenchmarkComparison: NotebookDisplayable, CustomStringConvertible {
    /// The ``summary`` as text, and with the ratios as HTML.
    public var mimeBundle: MimeBundle {
        let i = medianRatioInterval
        let html = "<p>\(HTML.escape(summary))<br>median ratio \(DurationFormat.fixed(medianRatio, decimals: 3)) "
            + "(\(i.levelText) interval \(DurationFormat.fixed(i.lower, decimals: 3))–\(DurationFormat.fixed(i.upper, decimals: 3))"
            + "\(isInterleaved ? ", interleaved rounds" : ", measured apart: \(rule.bandText) band")), "
            + "p90 ratio \(DurationFormat.fixed(p90Ratio, decimals: 3))</p>"
        return MimeBundle(plainText: description).adding("text/html", html)
    }

    /// The ``summary``.
    public var description: String { summary }
}

extension SingleTiming: NotebookDisplayable {
    /// The IPython-style two lines as text.
    public var mimeBundle: MimeBundle { MimeBundle(plainText: description) }
}
