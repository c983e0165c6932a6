@testable import BenchbookModels
import Foundation
import Testing

/// Paired accuracy: McNemar's exact test, Newcombe's paired interval, the verdict, the errors
/// and the sentences. Tests/python/test_paired_accuracy.py checks the statistics on hundreds of
/// tables against statsmodels and scipy; the figures here are from the same references.
@Suite struct PairedAccuracyTests {
    /// A comparison of a 2 × 2 table: A is the candidate, B the baseline.
    static func table(_ bothRight: Int, _ onlyA: Int, _ onlyB: Int, _ bothWrong: Int, band: Double = 0.5) throws
        -> PairedAccuracyComparison {
        try PairedAccuracyComparison(baselineName: "B", candidateName: "A", bothRight: bothRight, onlyCandidateRight: onlyA,
                                     onlyBaselineRight: onlyB, bothWrong: bothWrong, equivalenceBand: band)
    }

    /// An evaluation holding each image's answer.
    static func evaluation(_ path: String, predictions: [Int], labels: [Int]) -> EvaluationResult {
        var confusion = [[Int]](repeating: [0, 0, 0], count: 3)
        for (p, t) in zip(predictions, labels) { confusion[t][p] += 1 }
        return EvaluationResult(modelPath: path, classNames: ["a", "b", "c"], confusion: confusion, seconds: 0,
                                batchSize: 1, predictions: predictions, labels: labels)
    }

    @Test func mcNemarIsTheDoubledBinomialTail() throws {
        // scipy 1.17.1 binomtest(b, b + c).pvalue (= statsmodels' mcnemar(exact=True)).
        let references: [(Int, Int, Double)] = [(61, 19, 2.7318699228822653e-06), (3, 0, 0.25), (0, 5, 0.0625),
                                                 (20, 25, 0.5514843298025198), (0, 6, 0.03125), (12, 5, 0.143463134765625),
                                                 (1000, 700, 3.585261571938489e-13)]
        for (b, c, p) in references {
            let value = ProportionStatistics.mcNemarExactPValue(b, c)
            #expect(abs(value - p) <= 1e-9 * p, "\(b) \(c): \(value) against \(p)")
            #expect(ProportionStatistics.mcNemarExactPValue(c, b) == value)
        }
        #expect(ProportionStatistics.mcNemarExactPValue(0, 0) == 1)
        #expect(ProportionStatistics.mcNemarExactPValue(7, 7) == 1)
        #expect(ProportionStatistics.mcNemarExactPValue(50_000, 49_000) < 0.01)
    }

    @Test func intervalIsNewcombesHybridScoreInterval() throws {
        // Newcombe's formula on statsmodels' Wilson margins (Tests/python/test_paired_accuracy.py).
        let references: [([Int], Double, Double)] = [([8700, 61, 19, 1220], 0.002429521914512191, 0.005999337632680227),
                                                     ([9990, 0, 0, 10], -0.00043042462356868274, 0.00043042462356868274),
                                                     ([50, 3, 0, 47], -0.008263869024659629, 0.0678341139154272),
                                                     ([10, 0, 5, 0], -0.5828645226148024, -0.06032033430660377)]
        for (counts, lower, upper) in references {
            let d = try Self.table(counts[0], counts[1], counts[2], counts[3]).difference
            #expect(abs(d.lower - lower) < 1e-12 && abs(d.upper - upper) < 1e-12, "\(counts): \(d)")
            #expect(d.lower <= d.estimate && d.estimate <= d.upper)
            #expect(d.estimate == Double(counts[1] - counts[2]) / Double(counts.reduce(0, +)))
        }
        // Swapping the two sides mirrors the interval.
        let forward = try Self.table(900, 40, 20, 40).difference, backward = try Self.table(900, 20, 40, 40).difference
        #expect(abs(forward.lower + backward.upper) < 1e-15 && abs(forward.upper + backward.lower) < 1e-15)
        // No image: the whole range.
        let empty = try Self.table(0, 0, 0, 0)
        #expect(empty.difference.lower == -1 && empty.difference.upper == 1 && empty.verdict == .undecided)
    }

    @Test func verdictsFollowTheIntervalAndTheTest() throws {
        #expect(try Self.table(8700, 61, 19, 1220).verdict == .higher)
        #expect(try Self.table(8700, 19, 61, 1220).verdict == .lower)
        #expect(try Self.table(9000, 20, 25, 955).verdict == .equivalent)
        #expect(try Self.table(9990, 0, 0, 10, band: 0.1).verdict == .equivalent)
        // Too few images: the interval reaches outside the band.
        let few = try Self.table(50, 3, 0, 47)
        #expect(few.verdict == .undecided && few.undecidedReason == "the interval includes 0 and reaches outside the band")
        #expect((few.imagesToDecide ?? 0) > 100)
        // The interval clears 0 but McNemar's p is 0.0625: no direction, and the reason says why.
        let parted = try Self.table(10, 0, 5, 0)
        #expect(parted.difference.upper < 0 && parted.mcNemarPValue > 0.05)
        #expect(parted.verdict == .undecided && parted.undecidedReason!.hasPrefix("the interval clears 0"))
        // The same difference on more images is decided.
        #expect(try Self.table(5000, 30, 60, 4910, band: 0.5).verdict == .lower)
        #expect(try Self.table(8700, 61, 19, 1220).imagesToDecide == nil)
    }

    @Test func sentencesCarryTheIntervalTheTestAndTheDiscordantCounts() throws {
        let higher = try Self.table(8700, 61, 19, 1220)
        #expect(higher.sentence("int8", than: "float") == "int8 scores 0.42 points higher than float (paired difference +0.42 points, "
            + "95 % interval +0.24 to +0.60 points; McNemar's exact p < 0.0001; discordant images: 61 right only with int8, "
            + "19 only with float).")
        #expect(higher.phrase().hasPrefix("0.42 points higher than B (paired difference +0.42 points"))
        let equivalent = try Self.table(9000, 20, 25, 955)
        #expect(equivalent.sentence().hasPrefix("A and B are equivalent in accuracy within ±0.5 points (paired difference −0.05 points, "
            + "95 % interval −0.19 to +0.09 points; McNemar's exact p = 0.5515; discordant images: 20 right only with A, 25 only with B"))
        let undecided = try Self.table(50, 3, 0, 47, band: 2)
        #expect(undecided.sentence().hasPrefix("A against B: undecided, band ±2 points (paired difference +3.00 points"))
        #expect(undecided.sentence().contains("roughly 170 images instead of 100 would decide it"))
        // A bound that clears 0 by less than 0.005 points is printed with the digits that show it.
        let close = try Self.table(500_000, 1299, 1200, 97_400)
        #expect(close.difference.lower > 0 && close.difference.lower < 0.00005 && close.verdict == .higher)
        #expect(close.sentence().contains("95 % interval +0.0002 to +0.0328 points; McNemar's exact p = 0.0499;"), "\(close.sentence())")
    }

    @Test func pValueNearTheLevelIsNotPrintedAsTheLevel() throws {
        // A comparison whose p rounds to 0.0500 at four decimals gets more.
        var found = false
        for c in 20...200 {
            for b in 0..<c where abs(ProportionStatistics.mcNemarExactPValue(b, c) - 0.05) < 0.00005 {
                let text = try Self.table(1000, b, c, 0).pValueText
                #expect(text != "p = 0.0500", "\(b) \(c)")
                found = true
            }
        }
        #expect(found)
    }

    @Test func evaluationsAreComparedImageByImage() throws {
        let labels = [0, 1, 2, 0, 1, 2]
        let baseline = Self.evaluation("models/float.tflite", predictions: [0, 1, 2, 1, 0, 0], labels: labels)
        let candidate = Self.evaluation("models/int8.tflite", predictions: [0, 1, 0, 0, 2, 1], labels: labels)
        let comparison = try PairedAccuracyComparison(baseline: baseline, candidate: candidate, equivalenceBand: 5)
        #expect(comparison.baselineName == "float.tflite" && comparison.candidateName == "int8.tflite")
        #expect(comparison.bothRight == 2 && comparison.onlyBaselineRight == 1 && comparison.onlyCandidateRight == 1)
        #expect(comparison.bothWrong == 2)
        // Both wrong on images 4 and 5, with different answers: agreement counts answers, not rightness.
        #expect(comparison.agreement?.agreeing == 2 && comparison.agreement?.disagreeingImages == [2, 3, 4, 5])
        #expect(comparison.description.contains("discordant images: 1 right only with int8.tflite, 1 only with float.tflite"))
        #expect(comparison.mimeBundle.data["text/html"] != nil)
    }

    @Test func mismatchedEvaluationsAreRefused() throws {
        let labels = [0, 1, 2]
        let a = Self.evaluation("a", predictions: [0, 1, 2], labels: labels)
        #expect(throws: PairedAccuracyError.differentCounts(baseline: 3, candidate: 2)) {
            try PairedAccuracyComparison(baseline: a, candidate: Self.evaluation("b", predictions: [0, 1], labels: [0, 1]))
        }
        #expect(throws: PairedAccuracyError.differentLabels(index: 1, baseline: 1, candidate: 2)) {
            try PairedAccuracyComparison(baseline: a, candidate: Self.evaluation("b", predictions: [0, 1, 2], labels: [0, 2, 1]))
        }
        let countsOnly = EvaluationResult(modelPath: "m/counts.pt", classNames: ["a", "b"], confusion: [[3, 0], [0, 3]],
                                          seconds: 0, batchSize: 1)
        #expect(throws: PairedAccuracyError.noAnswers(name: "counts.pt")) {
            try PairedAccuracyComparison(baseline: countsOnly, candidate: a)
        }
        #expect(throws: PairedAccuracyError.negativeCount(-1)) { try Self.table(1, -1, 0, 0) }
        #expect(throws: PairedAccuracyError.invalidBand(0)) { try Self.table(1, 0, 0, 0, band: 0) }
        #expect(throws: PairedAccuracyError.differentCounts(baseline: 2, candidate: 3)) {
            try PairedAccuracyComparison(baselineName: "b", baselineCorrect: [true, false], candidateName: "a",
                                         candidateCorrect: [true, true, false])
        }
        // Every message says what to do.
        for error in [PairedAccuracyError.differentCounts(baseline: 3, candidate: 2), .differentLabels(index: 1, baseline: 1, candidate: 2),
                      .noAnswers(name: "x"), .negativeCount(-1), .invalidBand(0)] {
            #expect(error.description.contains("Evaluate") || error.description.contains("Pass") || error.description.contains("Use"))
        }
    }

    @Test func agreementHasItsWilsonInterval() throws {
        let first = (0..<10_000).map { $0 % 10 }
        var second = first
        for index in stride(from: 0, to: 13 * 700, by: 700) { second[index] = (second[index] + 1) % 10 }
        let agreement = try PredictionAgreement(firstName: "PyTorch Lite", first: first, secondName: "TFLite", second: second)
        #expect(agreement.agreeing == 9987 && agreement.disagreeingImages.count == 13)
        #expect(agreement.sentence == "PyTorch Lite and TFLite give the same top-1 class on 9,987 of 10,000 images: "
            + "99.87 % (95 % interval 99.78–99.92 %).")
        #expect(throws: PairedAccuracyError.self) { try PredictionAgreement(firstName: "a", first: [1], secondName: "b", second: []) }
    }
}
