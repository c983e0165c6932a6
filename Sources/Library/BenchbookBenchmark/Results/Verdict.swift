import Foundation

/// What the 95 % interval of a time ratio (candidate ÷ baseline) allows one to say.
///
/// Three answers, as pyperf, asv and Criterion separate them: a difference, no difference
/// that matters, and "this run cannot tell". Saying "the same" because an interval contains 1
/// claims more than the run measured: an interval of 0.79–1.14× contains 1 and also a 20 %
/// difference either way.
public enum Verdict: String, Sendable, Equatable, Codable, CaseIterable {
    /// The candidate takes less time: the interval lies below 1 (and below the drift band when
    /// the two were measured apart).
    case faster
    /// The candidate takes more time: the interval lies above 1 (and above the drift band when
    /// the two were measured apart).
    case slower
    /// The whole interval lies inside the equivalence band: any difference is smaller than the
    /// band (two one-sided tests, each at 2.5 %).
    case equivalent
    /// Neither: the interval reaches outside the band and does not clear 1 (or the drift band).
    case undecided
}

/// The rule that turns the interval of a time ratio into a ``Verdict``.
///
/// Bands are symmetric on a log scale: ±5 % means ratios from 1/1.05 (0.952) to 1.05, so a band
/// reads the same whether a comparison is written as a time ratio or as a speed-up.
///
/// - Variants measured **in turns** (``Benchmark/interleave(_:)``) share every drift of the
///   machine: *faster* or *slower* when the interval excludes 1; *equivalent* when it lies
///   inside ``equivalenceBand``.
/// - Variants measured **apart** (one after the other, or in separate runs) also differ by what
///   the machine did between them: up to 5 % between back-to-back runs of the same code on a
///   loaded 2-core VM. Then a difference counts only when the interval clears the band, and the
///   band is the larger of the drift band and the equivalence band: *faster* or *slower* when
///   the whole interval lies outside it, *equivalent* when the whole interval lies inside it.
public struct VerdictRule: Sendable, Equatable, Codable {
    /// How far from 1 a ratio of variants measured apart must be before it counts as a difference.
    public static let driftBand = 0.05
    /// The equivalence band unless a cell states another.
    public static let defaultEquivalenceBand = 0.05

    /// Half-width of the equivalence band, relative (0.05: ratios within 1/1.05 to 1.05).
    public var equivalenceBand: Double
    /// Whether the two sides were measured apart (not in the same interleaved rounds).
    public var measuredApart: Bool
    /// How the sides relate when one of them is an earlier run (``BenchmarkHistory``): its
    /// band is the measured run-to-run spread, not the assumed ``driftBand``. `nil` for two
    /// sides of one session (and in comparisons written before it existed).
    public var relation: RunRelation?

    /// Creates a rule.
    /// - Parameters:
    ///   - equivalenceBand: the band's relative half-width, above 0 (0.05 for ±5 %).
    ///   - measuredApart: whether the sides were measured apart, so drift between them counts.
    public init(equivalenceBand: Double = VerdictRule.defaultEquivalenceBand, measuredApart: Bool) {
        precondition(equivalenceBand > 0 && equivalenceBand.isFinite, "an equivalence band must be a positive fraction, such as 0.05")
        self.equivalenceBand = equivalenceBand
        self.measuredApart = measuredApart
    }

    /// Creates the rule for this run against an earlier one.
    /// - Parameters:
    ///   - equivalenceBand: the band's relative half-width, above 0.
    ///   - relation: how the two runs relate (in turns, apart with a measured spread, apart
    ///     with none measured, on different processors).
    public init(equivalenceBand: Double = VerdictRule.defaultEquivalenceBand, relation: RunRelation) {
        self.init(equivalenceBand: equivalenceBand, measuredApart: relation != .together)
        self.relation = relation
    }

    /// The band a ratio is judged against: the equivalence band, widened to the measured
    /// run-to-run spread for separate runs (``RunRelation/apart(_:)``), or to the assumed drift
    /// band for two sides of one session measured one after the other.
    public var band: Double {
        switch relation {
        case .apart(let spread): return max(equivalenceBand, spread.band)
        case .together, .apartUnmeasured, .otherProcessor: return equivalenceBand
        case nil: return measuredApart ? max(equivalenceBand, Self.driftBand) : equivalenceBand
        }
    }

    /// Whether no interval can decide: separate runs with no measured spread, or on different
    /// processors (a difference there is the processors', not drift, and one run cannot part it
    /// from the code's).
    var cannotDecide: Bool {
        switch relation {
        case .apartUnmeasured, .otherProcessor: return true
        default: return false
        }
    }

    /// The band's lower edge (1 / (1 + band)).
    public var lowerEdge: Double { 1 / (1 + band) }
    /// The band's upper edge (1 + band).
    public var upperEdge: Double { 1 + band }

    /// The ratio a difference must clear: 1 in turns, the band's edges measured apart.
    var differenceEdges: (lower: Double, upper: Double) { measuredApart ? (lowerEdge, upperEdge) : (1, 1) }

    /// The verdict an interval of the time ratio allows.
    /// - Parameter interval: candidate ÷ baseline, with its bounds.
    /// - Returns: ``Verdict/undecided`` for an interval with a bound that is not a number.
    public func verdict(for interval: ConfidenceInterval) -> Verdict {
        guard interval.lower.isFinite, interval.upper.isFinite, !cannotDecide else { return .undecided }
        let edges = differenceEdges
        if interval.upper < edges.lower { return .faster }
        if interval.lower > edges.upper { return .slower }
        if interval.lower >= lowerEdge && interval.upper <= upperEdge { return .equivalent }
        return .undecided
    }

    /// The band as text: "±5 %".
    public var bandText: String { "±" + DurationFormat.fixed(band * 100, decimals: band * 100 == (band * 100).rounded() ? 0 : 1) + " %" }

    /// Why an undecided interval decides nothing, in words.
    func undecidedReason(_ interval: ConfidenceInterval) -> String {
        switch relation {
        case .apartUnmeasured(let processor):
            return "no run-to-run spread measured for this processor, \(processor), so no band tells drift "
                + "from a difference; `make bench-spread` measures it"
        case .otherProcessor(let current, let earlier):
            return "the processors differ, so this is not drift, and one run on each cannot tell the processors' "
                + "share from the code's: this run on \(current), the earlier run on \(earlier)"
        case .apart(let spread):
            return "measured apart, so a difference must clear \(bandText), the run-to-run spread measured on this "
                + "processor over \(spread.runs) runs, and this interval reaches across the band's edge"
        case .together, nil: break
        }
        if measuredApart {
            return "measured apart, so a difference must clear \(bandText) (the drift between runs), "
                + "and this interval reaches across the band's edge"
        }
        return "it includes 1 and reaches outside \(bandText)"
    }

    /// How many runs per side would decide an undecided interval if the ratio stayed where it
    /// is, assuming the interval's width shrinks with the square root of the run count: the
    /// width at which it would clear the edge it crosses, or fit inside the band. A projection
    /// from a bootstrap interval of few runs: on synthetic run sets whose ratio stays put, the
    /// count that decided was 0.66 to 1.5 times the projection from 9, 15 or 30 runs
    /// (`VerdictTests`).
    /// - Parameters:
    ///   - interval: the undecided interval.
    ///   - runs: the runs per side it came from.
    /// - Returns: the projected runs per side, or nil when the estimate sits on an edge (no
    ///   run count decides it) or the interval is not a number.
    func runsToDecide(_ interval: ConfidenceInterval, runs: Int) -> Int? {
        let estimate = interval.estimate
        guard !cannotDecide, runs > 0, estimate > 0, interval.lower > 0, interval.upper > 0, estimate.isFinite else { return nil }
        let r = log(estimate), low = log(interval.lower), high = log(interval.upper)
        let edges = differenceEdges
        // How much narrower the interval must get for each way it could be decided.
        var factors: [Double] = []
        if estimate > edges.upper { factors.append((r - low) / (r - log(edges.upper))) }     // clear the edge: slower
        if estimate < edges.lower { factors.append((high - r) / (log(edges.lower) - r)) }    // clear the edge: faster
        if estimate > lowerEdge && estimate < upperEdge {                                    // fit inside: equivalent
            factors.append(max((high - r) / (log(upperEdge) - r), (r - low) / (r - log(lowerEdge))))
        }
        guard let factor = factors.filter({ $0.isFinite && $0 > 1 }).min() else { return nil }
        let projected = (Double(runs) * factor * factor).rounded(.up)
        return projected < Double(Int.max / 2) ? Int(projected) : nil
    }
}
