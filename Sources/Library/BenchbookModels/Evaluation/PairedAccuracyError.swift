/// Why two evaluations cannot be compared image by image.
public enum PairedAccuracyError: Error, CustomStringConvertible, Equatable {
    /// The two were scored on different numbers of images.
    case differentCounts(baseline: Int, candidate: Int)
    /// Image `index` has another true class in one evaluation than in the other: not the same
    /// images, or not in the same order.
    case differentLabels(index: Int, baseline: Int, candidate: Int)
    /// An evaluation holds no per-image answers (it was built from counts alone).
    case noAnswers(name: String)
    /// A count of the 2 × 2 table is negative.
    case negativeCount(Int)
    /// The equivalence band is not a positive number of points.
    case invalidBand(Double)

    /// What was wrong and what to do.
    public var description: String {
        switch self {
        case .differentCounts(let baseline, let candidate):
            return "Cannot compare image by image: the baseline was scored on \(baseline) images and the candidate on "
                + "\(candidate). Evaluate both models on the same images tensor and labels."
        case .differentLabels(let index, let baseline, let candidate):
            return "Cannot compare image by image: image \(index) has true class \(baseline) in the baseline's evaluation "
                + "and \(candidate) in the candidate's, so the two were not scored on the same images in the same order. "
                + "Evaluate both models on the same images tensor and labels."
        case .noAnswers(let name):
            return "Cannot compare image by image: the evaluation of \(name) holds no per-image answers. "
                + "Use the result of Model.evaluate, or pass each image's right/wrong as [Bool]."
        case .negativeCount(let value):
            return "Cannot compare: a count of the 2 × 2 table is \(value). Pass the numbers of images right for both, "
                + "right only for each side and wrong for both, each 0 or more."
        case .invalidBand(let band):
            return "Cannot compare: the equivalence band is \(band) points. Pass a positive number of percentage points, "
                + "such as 0.5 for ±0.5 points."
        }
    }
}
