import BenchbookBenchmark
import Foundation

/// Two classifiers compared on the same images, image by image: which images only one of them
/// gets right, McNemar's exact test, a paired 95 % interval for the difference in accuracy, and
/// a verdict.
///
/// Two models scored on the same test images are **paired data**. Most images are right for
/// both (or wrong for both) and say nothing about which model is better; what decides is the
/// **discordant** images, those only one of the two gets right. Comparing the two accuracies
/// through their separate intervals (``EvaluationResult/accuracyInterval``) ignores that
/// pairing and cannot tell apart two models whose intervals overlap, even when one is right on
/// 60 discordant images and the other on 10.
///
/// - **McNemar's exact test** (``mcNemarPValue``): under "equally accurate", each discordant
///   image is either side's with probability ½. The exact conditional test, two-sided:
///   p = min(1, 2 · P(X ≤ min(b, c))) for X ~ Binomial(b + c, ½), where b and c are the two
///   discordant counts (statsmodels' `mcnemar(exact=True)`; scipy's `binomtest(b, b + c)`).
/// - **The paired interval** (``difference``): candidate accuracy − baseline accuracy with its
///   95 % interval by Newcombe's hybrid score interval for paired proportions (Newcombe 1998,
///   Statistics in Medicine 17, 2635–2650, method 10; recommended by Fagerland, Lydersen and
///   Laake 2014 as the "Newcombe square-and-add" interval), which keeps its coverage near 95 %
///   where the normal (Wald) interval does not: few discordant images, accuracies near 100 %.
/// - **The verdict** (``verdict``), with the band stated in percentage points
///   (``equivalenceBand``): *higher* or *lower* when the interval clears 0 **and** McNemar's
///   p < 0.05 (both methods agree on a direction); *equivalent* when the whole interval lies
///   within ±band (two one-sided tests, each at 2.5 %, on the paired difference); otherwise
///   *undecided*, with the reason (``undecidedReason``) and, where the interval is what is
///   short, roughly how many images would decide it (``imagesToDecide``).
///
/// Both cover the images' sampling: how the two models would compare on other images drawn
/// like these. They do not cover training again with another seed, nor images unlike the test
/// set.
///
/// ```swift
/// let test = try FashionMNIST(split: .test)
/// let images = try test.tensor(range: 0..<2000)
/// let labels = test.labels.prefix(2000).map { Int($0) }
/// let float = try Model(contentsOf: "models/fashion_cnn.tflite").evaluate(images: images, labels: labels, showsProgress: false)
/// let int8 = try Model(contentsOf: "models/fashion_cnn_int8.tflite").evaluate(images: images, labels: labels, showsProgress: false)
/// let comparison = try PairedAccuracyComparison(baseline: float, candidate: int8, equivalenceBand: 1)
/// print(comparison.onlyCandidateRight, comparison.onlyBaselineRight, comparison.verdict)
/// comparison
/// ```
public struct PairedAccuracyComparison: Sendable, Equatable {
    /// What the paired interval and McNemar's test allow one to say about the candidate.
    public enum Verdict: String, Sendable, Equatable, CaseIterable {
        /// The candidate is more accurate: the interval lies above 0 and McNemar's p < 0.05.
        case higher
        /// The candidate is less accurate: the interval lies below 0 and McNemar's p < 0.05.
        case lower
        /// The whole interval lies within ±``PairedAccuracyComparison/equivalenceBand`` points.
        case equivalent
        /// Neither: see ``PairedAccuracyComparison/undecidedReason``.
        case undecided
    }

    /// The band of the verdict unless a caller states another: ±0.5 percentage points.
    public static let defaultEquivalenceBand = 0.5
    /// McNemar's p-value below which the test counts as a difference.
    public static let significanceLevel = 0.05

    /// Name of the baseline (the model compared against).
    public var baselineName: String
    /// Name of the candidate.
    public var candidateName: String
    /// Images both get right.
    public var bothRight: Int
    /// Images only the candidate gets right (discordant).
    public var onlyCandidateRight: Int
    /// Images only the baseline gets right (discordant).
    public var onlyBaselineRight: Int
    /// Images both get wrong.
    public var bothWrong: Int
    /// Half-width of the equivalence band in percentage points (0.5: ±0.5 points).
    public var equivalenceBand: Double
    /// Candidate accuracy − baseline accuracy (fractions, so 0.0042 is 0.42 points) with its
    /// 95 % paired interval (Newcombe's hybrid score interval).
    public var difference: ConfidenceInterval
    /// McNemar's exact test, two-sided, on the discordant images.
    public var mcNemarPValue: Double
    /// The verdict from ``difference``, ``mcNemarPValue`` and ``equivalenceBand``.
    public var verdict: Verdict
    /// How often the two give the same top-1 class, when both evaluations hold each image's answer.
    public var agreement: PredictionAgreement?

    /// Compares two evaluations of the same images, image by image.
    /// - Parameters:
    ///   - baseline: the evaluation compared against (from ``Model/evaluate(images:labels:classNames:batchSize:showsProgress:)``).
    ///   - candidate: the other evaluation, of the same images in the same order.
    ///   - baselineName: how sentences name the baseline; its file name when nil.
    ///   - candidateName: how sentences name the candidate; its file name when nil.
    ///   - equivalenceBand: half-width of the band for *equivalent*, in percentage points.
    /// - Throws: ``PairedAccuracyError`` when the two were not scored on the same images in
    ///   the same order, when one holds no per-image answers, or when the band is not positive.
    public init(baseline: EvaluationResult, candidate: EvaluationResult, baselineName: String? = nil,
                candidateName: String? = nil, equivalenceBand: Double = PairedAccuracyComparison.defaultEquivalenceBand) throws {
        let names = (baselineName ?? Self.fileName(baseline.modelPath), candidateName ?? Self.fileName(candidate.modelPath))
        for (result, name) in [(baseline, names.0), (candidate, names.1)]
        where result.predictions.count != result.labels.count || (result.predictions.isEmpty && result.count > 0) {
            throw PairedAccuracyError.noAnswers(name: name)
        }
        guard baseline.labels.count == candidate.labels.count else {
            throw PairedAccuracyError.differentCounts(baseline: baseline.labels.count, candidate: candidate.labels.count)
        }
        if let index = baseline.labels.indices.first(where: { baseline.labels[$0] != candidate.labels[$0] }) {
            throw PairedAccuracyError.differentLabels(index: index, baseline: baseline.labels[index],
                                                      candidate: candidate.labels[index])
        }
        let baselineCorrect = zip(baseline.predictions, baseline.labels).map { $0 == $1 }
        let candidateCorrect = zip(candidate.predictions, candidate.labels).map { $0 == $1 }
        try self.init(baselineName: names.0, baselineCorrect: baselineCorrect, candidateName: names.1,
                      candidateCorrect: candidateCorrect, equivalenceBand: equivalenceBand)
        agreement = try PredictionAgreement(firstName: names.1, first: candidate.predictions,
                                            secondName: names.0, second: baseline.predictions)
    }

    /// Compares two models from whether each got each image right.
    /// - Parameters:
    ///   - baselineName: how sentences name the baseline.
    ///   - baselineCorrect: for each image, whether the baseline got it right.
    ///   - candidateName: how sentences name the candidate.
    ///   - candidateCorrect: for each image, in the same order, whether the candidate got it right.
    ///   - equivalenceBand: half-width of the band for *equivalent*, in percentage points.
    /// - Throws: ``PairedAccuracyError/differentCounts(baseline:candidate:)`` when the arrays
    ///   differ in length, ``PairedAccuracyError/invalidBand(_:)`` for a band that is not positive.
    public init(baselineName: String, baselineCorrect: [Bool], candidateName: String, candidateCorrect: [Bool],
                equivalenceBand: Double = PairedAccuracyComparison.defaultEquivalenceBand) throws {
        guard baselineCorrect.count == candidateCorrect.count else {
            throw PairedAccuracyError.differentCounts(baseline: baselineCorrect.count, candidate: candidateCorrect.count)
        }
        var table = [0, 0, 0, 0]      // both right, only candidate, only baseline, both wrong
        for (base, cand) in zip(baselineCorrect, candidateCorrect) {
            table[base ? (cand ? 0 : 2) : (cand ? 1 : 3)] += 1
        }
        try self.init(baselineName: baselineName, candidateName: candidateName, bothRight: table[0],
                      onlyCandidateRight: table[1], onlyBaselineRight: table[2], bothWrong: table[3],
                      equivalenceBand: equivalenceBand)
    }

    /// Compares two models from the four counts of their 2 × 2 table.
    /// - Parameters:
    ///   - baselineName: how sentences name the baseline.
    ///   - candidateName: how sentences name the candidate.
    ///   - bothRight: images both get right.
    ///   - onlyCandidateRight: images only the candidate gets right.
    ///   - onlyBaselineRight: images only the baseline gets right.
    ///   - bothWrong: images both get wrong.
    ///   - equivalenceBand: half-width of the band for *equivalent*, in percentage points.
    /// - Throws: ``PairedAccuracyError/negativeCount(_:)`` or ``PairedAccuracyError/invalidBand(_:)``.
    public init(baselineName: String, candidateName: String, bothRight: Int, onlyCandidateRight: Int,
                onlyBaselineRight: Int, bothWrong: Int,
                equivalenceBand: Double = PairedAccuracyComparison.defaultEquivalenceBand) throws {
        if let negative = [bothRight, onlyCandidateRight, onlyBaselineRight, bothWrong].first(where: { $0 < 0 }) {
            throw PairedAccuracyError.negativeCount(negative)
        }
        guard equivalenceBand > 0, equivalenceBand.isFinite else { throw PairedAccuracyError.invalidBand(equivalenceBand) }
        self.baselineName = baselineName
        self.candidateName = candidateName
        self.bothRight = bothRight
        self.onlyCandidateRight = onlyCandidateRight
        self.onlyBaselineRight = onlyBaselineRight
        self.bothWrong = bothWrong
        self.equivalenceBand = equivalenceBand
        difference = ProportionStatistics.pairedDifference(bothSuccess: bothRight, firstOnly: onlyCandidateRight,
                                                           secondOnly: onlyBaselineRight, bothFail: bothWrong)
        mcNemarPValue = ProportionStatistics.mcNemarExactPValue(onlyCandidateRight, onlyBaselineRight)
        verdict = Self.verdict(difference, pValue: mcNemarPValue, band: equivalenceBand)
        agreement = nil
    }

    /// The images compared.
    public var count: Int { bothRight + onlyCandidateRight + onlyBaselineRight + bothWrong }
    /// The images only one of the two gets right: all that McNemar's test looks at.
    public var discordant: Int { onlyCandidateRight + onlyBaselineRight }
    /// The candidate's accuracy on these images.
    public var candidateAccuracy: Double { count == 0 ? 0 : Double(bothRight + onlyCandidateRight) / Double(count) }
    /// The baseline's accuracy on these images.
    public var baselineAccuracy: Double { count == 0 ? 0 : Double(bothRight + onlyBaselineRight) / Double(count) }
    /// Whether the comparison found a difference (``verdict`` is higher or lower).
    public var isDifference: Bool { verdict == .higher || verdict == .lower }

    /// The verdict rule: a direction needs the interval and McNemar's test to agree; equivalence
    /// needs the whole interval inside the band.
    static func verdict(_ difference: ConfidenceInterval, pValue: Double, band: Double) -> Verdict {
        let rejects = pValue < significanceLevel
        if difference.lower > 0 && rejects { return .higher }
        if difference.upper < 0 && rejects { return .lower }
        if difference.lower >= -band / 100 && difference.upper <= band / 100 { return .equivalent }
        return .undecided
    }

    /// Why an undecided comparison decides nothing; nil when it decides.
    public var undecidedReason: String? {
        guard verdict == .undecided else { return nil }
        let rejects = mcNemarPValue < Self.significanceLevel
        let clears = difference.lower > 0 || difference.upper < 0
        if clears && !rejects {
            return "the interval clears 0 but McNemar's exact test does not reach p < 0.05: with so few discordant images "
                + "the two methods can part, and a direction needs both"
        }
        if !clears && rejects {
            return "McNemar's exact test reaches p < 0.05 but the interval includes 0: with so few discordant images "
                + "the two methods can part, and a direction needs both"
        }
        return "the interval includes 0 and reaches outside the band"
    }

    /// For an undecided comparison whose interval is what falls short, roughly how many images
    /// would decide it if the difference and the share of discordant images stayed as they are
    /// (the interval narrowing with the square root of the image count); nil when decided, or
    /// when the difference sits on the band's edge (no image count decides it).
    public var imagesToDecide: Int? {
        guard verdict == .undecided, count > 0 else { return nil }
        let band = equivalenceBand / 100, d = difference.estimate, low = difference.lower, high = difference.upper
        var factors: [Double] = []
        if d > 0 { factors.append((d - low) / d) }                          // clear 0 upwards
        if d < 0 { factors.append((high - d) / -d) }                        // clear 0 downwards
        if abs(d) < band { factors.append(max((high - d) / (band - d), (d - low) / (d + band))) }   // fit inside
        guard let factor = factors.filter({ $0.isFinite && $0 > 1 }).min() else { return nil }
        let projected = (Double(count) * factor * factor).rounded(.up)
        return projected < Double(Int.max / 2) ? Int(projected) : nil
    }

    /// A model file's name without its folder.
    static func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }
}
