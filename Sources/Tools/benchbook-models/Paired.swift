import BenchbookModels
import Foundation
import JSONCore

/// `paired`: paired accuracy comparisons from 2 × 2 tables, one per line of standard input
/// ("both-right only-candidate-right only-baseline-right both-wrong [band-in-points]"), each
/// answered by one JSON line: the paired difference with its interval, McNemar's exact p, the
/// verdict and the sentence. Tests/python/test_paired_accuracy.py checks them against
/// statsmodels and scipy.
enum PairedCommand {
    static func run() throws {
        while let line = readLine() {
            let fields = line.split(separator: " ").compactMap { Double($0) }
            guard fields.count >= 4 else { continue }
            let counts = fields.prefix(4).map { Int($0) }
            let comparison = try PairedAccuracyComparison(
                baselineName: "B", candidateName: "A", bothRight: counts[0], onlyCandidateRight: counts[1],
                onlyBaselineRight: counts[2], bothWrong: counts[3],
                equivalenceBand: fields.count > 4 ? fields[4] : PairedAccuracyComparison.defaultEquivalenceBand)
            let record: JSONValue = [
                "table": .array(counts.map { .number(Double($0)) }),
                "difference": .number(comparison.difference.estimate), "lower": .number(comparison.difference.lower),
                "upper": .number(comparison.difference.upper), "p": .number(comparison.mcNemarPValue),
                "verdict": .string(comparison.verdict.rawValue), "sentence": .string(comparison.sentence()),
                "images_to_decide": comparison.imagesToDecide.map { .number(Double($0)) } ?? .null,
            ]
            print(record.serializedText())
        }
    }
}
