/// A figure with the range it is known to within: a point estimate and the bounds of a
/// confidence interval (95 % unless ``level`` says otherwise).
public struct ConfidenceInterval: Sendable, Equatable, Codable {
    /// The figure computed from all the samples.
    public var estimate: Double
    /// The lower bound.
    public var lower: Double
    /// The upper bound.
    public var upper: Double
    /// The confidence level, for example 0.95.
    public var level: Double

    /// Creates an interval.
    /// - Parameters:
    ///   - estimate: the point estimate.
    ///   - lower: the lower bound.
    ///   - upper: the upper bound.
    ///   - level: the confidence level (0.95 for 95 %).
    public init(estimate: Double, lower: Double, upper: Double, level: Double = 0.95) {
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
        self.level = level
    }

    /// Whether `value` lies within the bounds (inclusive).
    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }

    /// The interval of `1 / x`: bounds swap (for turning a time ratio into a speed-up).
    public var reciprocal: ConfidenceInterval {
        ConfidenceInterval(estimate: 1 / estimate, lower: 1 / upper, upper: 1 / lower, level: level)
    }

    /// The interval with every figure multiplied by `factor` (a unit change).
    public func scaled(by factor: Double) -> ConfidenceInterval {
        ConfidenceInterval(estimate: estimate * factor, lower: lower * factor, upper: upper * factor, level: level)
    }

    /// The level as a percentage for text, for example "95 %".
    public var levelText: String { DurationFormat.fixed(level * 100, decimals: level * 100 == (level * 100).rounded() ? 0 : 1) + " %" }
}
