import BenchbookBenchmark

extension EvaluationResult {
    /// The accuracy with its 95 % Wilson score interval: how far the accuracy on all such
    /// images could be from the one measured on these. On 10,000 images near 90 % the
    /// interval is about ±0.6 points, so two models closer than about a point are not told
    /// apart by the test set.
    ///
    /// Wilson's interval (not the normal approximation p ± 1.96·√(p(1−p)/n)) stays within
    /// [0, 1] and keeps its coverage near 0 and 1.
    public var accuracyInterval: ConfidenceInterval {
        guard count > 0 else { return ConfidenceInterval(estimate: 0, lower: 0, upper: 1) }
        let z = 1.959963984540054, n = Double(count), p = accuracy
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return ConfidenceInterval(estimate: p, lower: max(0, centre - half), upper: min(1, centre + half))
    }
}
