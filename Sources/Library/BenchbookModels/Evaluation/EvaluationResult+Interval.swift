import BenchbookBenchmark

extension EvaluationResult {
    /// The accuracy with its 95 % Wilson score interval: how far the accuracy on all such
    /// images could be from the one measured on these. On 10,000 images near 90 % the
    /// interval is about ±0.6 points, so two models closer than about a point are not told
    /// apart by the test set.
    ///
    /// Wilson's interval (not the normal approximation p ± 1.96·√(p(1−p)/n)) stays within
    /// [0, 1] and keeps its coverage near 0 and 1.
    ///
    /// This interval is one model's. Two models scored on the same images are compared image
    /// by image, with ``PairedAccuracyComparison``: whether their separate intervals overlap
    /// says little, since most images are right (or wrong) for both.
    public var accuracyInterval: ConfidenceInterval { ProportionStatistics.wilson(correct, of: count) }
}
