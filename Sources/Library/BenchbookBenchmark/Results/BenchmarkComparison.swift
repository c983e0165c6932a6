import BenchbookRuntime

/// How a candidate's run times compare with a baseline's: the ratio of the medians with its
/// 95 % bootstrap interval, a rank test, and a ``Verdict`` computed from the interval by a
/// ``VerdictRule``.
///
/// Three verdicts: *faster* or *slower* when the interval clears 1 (for variants measured
/// apart: clears the ±5 % drift band), *equivalent* when the whole interval lies inside the
/// equivalence band (±5 % unless the caller states another), and otherwise *undecided*, with
/// what would decide it (``runsToDecide``). Variants measured interleaved
/// (``Benchmark/interleave(_:)``: A B A B …) share every drift, are resampled round by round,
/// and need only clear 1.
///
/// The two-sided Mann–Whitney U test is reported beside the interval (``test``): a difference
/// in ranks, not a size; the verdict follows the interval.
public struct BenchmarkComparison: Sendable, Equatable, Codable {
    /// How far from 1 a ratio of variants measured apart must be before it counts.
    public static let separateRunsBand = VerdictRule.driftBand
    /// The p-value below which the rank test reports that the run times differ in rank.
    public static let significanceLevel = 0.01

    /// Name of the baseline.
    public var baselineName: String
    /// Name of the candidate.
    public var candidateName: String
    /// Candidate median divided by baseline median (above 1: the candidate is slower).
    public var medianRatio: Double
    /// ``medianRatio`` with its 95 % bootstrap interval.
    public var medianRatioInterval: ConfidenceInterval
    /// Candidate p90 divided by baseline p90.
    public var p90Ratio: Double
    /// The rank test on the two sets of run times.
    public var test: MannWhitneyTest
    /// Whether the two sides were measured in the same interleaved rounds (then the interval
    /// is computed round by round and no drift band applies).
    public var isInterleaved: Bool
    /// The rule the verdict was judged by (its bands).
    public var rule: VerdictRule
    /// The verdict, from ``medianRatioInterval`` and ``rule``.
    public var verdict: Verdict
    /// Runs per side the interval came from (the smaller side).
    public var runs: Int
    /// Processes per side the interval came from (the smaller side), when both sides were
    /// measured across processes and the interval resamples processes; nil when it covers runs
    /// of one process per side.
    public var processes: Int?

    /// Compares two sets of run times.
    /// - Parameters:
    ///   - baselineName: label of the baseline.
    ///   - baseline: the baseline's run times.
    ///   - candidateName: label of the candidate.
    ///   - candidate: the candidate's run times.
    ///   - interleaved: whether run `i` of both was measured in the same round (A B A B …);
    ///     needs equal counts.
    ///   - equivalenceBand: how close to 1 the whole interval must be for *equivalent*
    ///     (0.05: within ±5 %); must be above 0.
    public init(baselineName: String, baseline: [Double], candidateName: String, candidate: [Double],
                interleaved: Bool = false, equivalenceBand: Double = VerdictRule.defaultEquivalenceBand) {
        self.baselineName = baselineName
        self.candidateName = candidateName
        let paired = interleaved && baseline.count == candidate.count
        isInterleaved = paired
        medianRatioInterval = Bootstrap.ratio(50, candidate: candidate, baseline: baseline, paired: paired)
        medianRatio = medianRatioInterval.estimate
        let base = LatencyStatistics(samples: baseline)
        let cand = LatencyStatistics(samples: candidate)
        p90Ratio = base.p90 > 0 ? cand.p90 / base.p90 : .nan
        test = MannWhitneyTest(candidate, baseline)
        rule = VerdictRule(equivalenceBand: equivalenceBand, measuredApart: !paired)
        verdict = rule.verdict(for: medianRatioInterval)
        runs = min(baseline.count, candidate.count)
    }

    /// Compares two figures measured across processes: the interval is across processes
    /// (``AcrossProcesses/ratio(candidate:baseline:paired:)``), round by round when they were
    /// measured in turns.
    /// - Parameters:
    ///   - baselineName: label of the baseline.
    ///   - baselineProcesses: the baseline's run times, one array per process.
    ///   - candidateName: label of the candidate.
    ///   - candidateProcesses: the candidate's, one array per process.
    ///   - inTurns: process `i` of both sides came from process round `i` (needs equal counts).
    ///   - equivalenceBand: how close to 1 the whole interval must be for *equivalent*.
    ///   - relation: how the sides relate when one is an earlier run; nil within one session.
    public init(baselineName: String, baselineProcesses: [[Double]], candidateName: String,
                candidateProcesses: [[Double]], inTurns: Bool,
                equivalenceBand: Double = VerdictRule.defaultEquivalenceBand, relation: RunRelation? = nil) {
        let baseline = baselineProcesses.flatMap { $0 }, candidate = candidateProcesses.flatMap { $0 }
        self.init(baselineName: baselineName, baseline: baseline, candidateName: candidateName, candidate: candidate,
                  equivalenceBand: equivalenceBand)
        let paired = inTurns && baselineProcesses.count == candidateProcesses.count
        isInterleaved = paired
        medianRatioInterval = AcrossProcesses.ratio(candidate: candidateProcesses, baseline: baselineProcesses, paired: paired)
        medianRatio = medianRatioInterval.estimate
        if let relation {
            rule = VerdictRule(equivalenceBand: equivalenceBand, relation: relation)
        } else {
            rule = VerdictRule(equivalenceBand: equivalenceBand, measuredApart: !paired)
        }
        verdict = rule.verdict(for: medianRatioInterval)
        processes = min(baselineProcesses.count, candidateProcesses.count)
    }

    /// The same comparison judged as this run against an earlier run related by `relation`
    /// (the interval stays; the rule and verdict change).
    /// - Parameter relation: how the earlier run relates to this one.
    /// - Returns: the re-judged comparison.
    public func judged(as relation: RunRelation) -> BenchmarkComparison {
        var copy = self
        copy.rule = VerdictRule(equivalenceBand: rule.equivalenceBand, relation: relation)
        copy.verdict = copy.rule.verdict(for: medianRatioInterval)
        return copy
    }

    /// Whether the run found a difference (``verdict`` is faster or slower).
    public var isDifference: Bool { verdict == .faster || verdict == .slower }

    /// How much faster the candidate is: baseline median ÷ candidate median, with its interval
    /// (above 1: faster).
    public var speedup: ConfidenceInterval { medianRatioInterval.reciprocal }

    /// For an undecided comparison, how many runs per side would likely decide it, assuming
    /// the interval narrows with the square root of the runs; nil when decided, or when the
    /// median ratio sits on an edge of the band (no run count would decide it).
    public var runsToDecide: Int? {
        verdict == .undecided ? rule.runsToDecide(medianRatioInterval, runs: processes ?? runs) : nil
    }
}
