import BenchbookRuntime

/// How a candidate's run times compare with a baseline's.
///
/// **Noise rule.** The difference is *beyond noise* when both hold:
/// 1. the two-sided Mann–Whitney U test gives p < ``significanceLevel`` (0.01): the run
///    times are unlikely to come from the same distribution, and
/// 2. the medians differ by more than ``minimumRelativeChange`` (5 %): smaller shifts are
///    within what frequency scaling and other processes cause between back-to-back runs of
///    the same code on a shared machine (measured here: 4 % on a loaded 2-core VM), however
///    many runs were made.
public struct BenchmarkComparison: Sendable, Equatable, Codable {
    /// p-value below which a rank difference counts.
    public static let significanceLevel = 0.01
    /// Relative change of the median below which a difference never counts.
    public static let minimumRelativeChange = 0.05

    /// Name of the baseline.
    public var baselineName: String
    /// Name of the candidate.
    public var candidateName: String
    /// Candidate median divided by baseline median (above 1: the candidate is slower).
    public var medianRatio: Double
    /// Candidate p90 divided by baseline p90.
    public var p90Ratio: Double
    /// The rank test on the two sets of run times.
    public var test: MannWhitneyTest
    /// Whether the difference is beyond noise (see the rule above).
    public var isBeyondNoise: Bool

    /// Compares two sets of run times.
    /// - Parameters:
    ///   - baselineName: label of the baseline.
    ///   - baseline: the baseline's run times.
    ///   - candidateName: label of the candidate.
    ///   - candidate: the candidate's run times.
    public init(baselineName: String, baseline: [Double], candidateName: String, candidate: [Double]) {
        self.baselineName = baselineName
        self.candidateName = candidateName
        let base = LatencyStatistics(samples: baseline)
        let cand = LatencyStatistics(samples: candidate)
        medianRatio = base.median > 0 ? cand.median / base.median : .nan
        p90Ratio = base.p90 > 0 ? cand.p90 / base.p90 : .nan
        test = MannWhitneyTest(candidate, baseline)
        isBeyondNoise = test.pValue < Self.significanceLevel
            && abs(medianRatio - 1) > Self.minimumRelativeChange
    }

    /// For example "candidate is 1.25× slower than baseline (median), beyond noise (p = 1.2e-08)".
    public var verdict: String {
        let direction: String
        if medianRatio >= 1 {
            direction = "\(DurationFormat.fixed(medianRatio, decimals: 2))× slower than"
        } else {
            direction = "\(DurationFormat.fixed(1 / medianRatio, decimals: 2))× faster than"
        }
        let p = test.pValue < 1e-4 ? "p < 0.0001" : "p = \(DurationFormat.fixed(test.pValue, decimals: 4))"
        let noise = isBeyondNoise ? "beyond noise" : "within noise"
        return "\(candidateName) is \(direction) \(baselineName) (median), \(noise) (Mann–Whitney \(p))"
    }
}

extension BenchmarkComparison: NotebookDisplayable, CustomStringConvertible {
    /// The ``verdict`` as text, and with the ratios as HTML.
    public var mimeBundle: MimeBundle {
        let html = "<p>\(HTML.escape(verdict))<br>median ratio \(DurationFormat.fixed(medianRatio, decimals: 3)), "
            + "p90 ratio \(DurationFormat.fixed(p90Ratio, decimals: 3))</p>"
        return MimeBundle(plainText: description).adding("text/html", html)
    }

    /// The ``verdict``.
    public var description: String { verdict }
}

extension SingleTiming: NotebookDisplayable {
    /// The IPython-style two lines as text.
    public var mimeBundle: MimeBundle { MimeBundle(plainText: description) }
}
