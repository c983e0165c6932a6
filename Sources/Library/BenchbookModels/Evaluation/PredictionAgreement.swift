import BenchbookBenchmark
import BenchbookRuntime
import Foundation

/// How often two classifiers (two runtimes, two files, two settings) give the same top-1
/// class on the same images, with the 95 % Wilson interval of that share.
///
/// Agreement is not accuracy: two files can both be wrong on an image with different answers,
/// and a runtime that agrees with another on every image shares its mistakes too. The interval
/// covers the images' sampling: how often the two would agree on other images drawn like these.
///
/// ```swift
/// let test = try FashionMNIST(split: .test)
/// let images = try test.tensor(range: 0..<1000)
/// let labels = test.labels.prefix(1000).map { Int($0) }
/// let torch = try Model(contentsOf: "models/fashion_cnn.ptl").evaluate(images: images, labels: labels, showsProgress: false)
/// let lite = try Model(contentsOf: "models/fashion_cnn.tflite").evaluate(images: images, labels: labels, showsProgress: false)
/// try PredictionAgreement(torch, lite, firstName: "PyTorch Lite", secondName: "TFLite")
/// ```
public struct PredictionAgreement: Sendable, Equatable, CustomStringConvertible, NotebookDisplayable {
    /// Name of the first classifier.
    public var firstName: String
    /// Name of the second classifier.
    public var secondName: String
    /// Images on which both give the same top-1 class.
    public var agreeing: Int
    /// Images compared.
    public var count: Int
    /// The images (by index) on which the two give different classes, in order.
    public var disagreeingImages: [Int]

    /// Compares two evaluations' answers on the same images.
    /// - Parameters:
    ///   - first: one evaluation (from ``Model/evaluate(images:labels:classNames:batchSize:showsProgress:)``).
    ///   - second: another, of the same images in the same order.
    ///   - firstName: how sentences name the first; its file name when nil.
    ///   - secondName: how sentences name the second; its file name when nil.
    /// - Throws: ``PairedAccuracyError`` when the two were not scored on the same images in the
    ///   same order, or one holds no per-image answers.
    public init(_ first: EvaluationResult, _ second: EvaluationResult, firstName: String? = nil,
                secondName: String? = nil) throws {
        let names = (firstName ?? PairedAccuracyComparison.fileName(first.modelPath),
                     secondName ?? PairedAccuracyComparison.fileName(second.modelPath))
        for (result, name) in [(first, names.0), (second, names.1)]
        where result.predictions.count != result.labels.count || (result.predictions.isEmpty && result.count > 0) {
            throw PairedAccuracyError.noAnswers(name: name)
        }
        if let index = first.labels.indices.first(where: { $0 < second.labels.count && first.labels[$0] != second.labels[$0] }) {
            throw PairedAccuracyError.differentLabels(index: index, baseline: second.labels[index], candidate: first.labels[index])
        }
        try self.init(firstName: names.0, first: first.predictions, secondName: names.1, second: second.predictions)
    }

    /// Compares two lists of top-1 classes, image by image.
    /// - Parameters:
    ///   - firstName: how sentences name the first classifier.
    ///   - first: its class for each image.
    ///   - secondName: how sentences name the second.
    ///   - second: its class for each image, in the same order.
    /// - Throws: ``PairedAccuracyError/differentCounts(baseline:candidate:)`` when the lists differ in length.
    public init(firstName: String, first: [Int], secondName: String, second: [Int]) throws {
        guard first.count == second.count else {
            throw PairedAccuracyError.differentCounts(baseline: second.count, candidate: first.count)
        }
        self.firstName = firstName
        self.secondName = secondName
        count = first.count
        disagreeingImages = first.indices.filter { first[$0] != second[$0] }
        agreeing = count - disagreeingImages.count
    }

    /// The share of images with the same top-1 class, with its 95 % Wilson interval.
    public var interval: ConfidenceInterval { ProportionStatistics.wilson(agreeing, of: count) }

    /// "A and B give the same top-1 class on 9,987 of 10,000 images: 99.87 % (95 % interval
    /// 99.78–99.93 %)." The form `scripts/notebooks/check_claims.py` reads back and checks.
    public var sentence: String { "\(firstName) and \(secondName) give the \(phrase)." }

    /// "same top-1 class on 9,987 of 10,000 images: 99.87 % (95 % interval 99.78–99.93 %)", for a table cell.
    public var phrase: String {
        let i = interval
        return "same top-1 class on \(PairedAccuracyComparison.grouped(agreeing)) of \(PairedAccuracyComparison.grouped(count)) "
            + "images: \(DurationFormat.fixed(i.estimate * 100, decimals: 2)) % (\(i.levelText) interval "
            + "\(DurationFormat.fixed(i.lower * 100, decimals: 2))–\(DurationFormat.fixed(i.upper * 100, decimals: 2)) %)"
    }

    /// The ``sentence``, and the first disagreeing images.
    public var description: String {
        guard !disagreeingImages.isEmpty else { return sentence }
        let shown = disagreeingImages.prefix(10).map(String.init).joined(separator: ", ")
        return sentence + " Images with different classes: " + shown + (disagreeingImages.count > 10 ? ", …" : "") + "."
    }

    /// The ``description`` as text and HTML.
    public var mimeBundle: MimeBundle {
        MimeBundle(plainText: description).adding("text/html", "<p>\(HTML.escape(description))</p>")
    }
}
