import Foundation

/// How a value axis maps numbers to lengths.
public enum AxisScale: Sendable, Equatable {
    /// Equal steps for equal differences, from zero (bar lengths compare honestly).
    case linear
    /// Equal steps for equal ratios (decades), for values spread over orders of magnitude;
    /// bars start at the axis's lower end, so compare their ends, not their lengths.
    case logarithmic
    /// Logarithmic when the largest positive value is at least ``automaticRatio`` times the
    /// smallest, linear otherwise.
    case automatic

    /// The spread at which ``automatic`` switches to a logarithmic axis: beyond 10×, the
    /// smallest bar of a linear axis from zero is a tenth of the largest or less, too short to
    /// read its value or its whiskers.
    public static let automaticRatio = 10.0

    /// The scale to draw `values` with: `.linear` or `.logarithmic`.
    public func resolved(for values: [Double]) -> AxisScale {
        switch self {
        case .linear, .logarithmic:
            return values.contains { $0 <= 0 } ? .linear : self
        case .automatic:
            let positive = values.filter { $0 > 0 }
            guard positive.count == values.count, let low = positive.min(), let high = positive.max() else { return .linear }
            return high / low >= Self.automaticRatio ? .logarithmic : .linear
        }
    }
}

/// Maps a value range onto a pixel range on a logarithmic axis.
struct LogScale {
    var domain: (Double, Double)
    var range: (Double, Double)

    func callAsFunction(_ value: Double) -> Double {
        let low = log10(domain.0), high = log10(domain.1)
        let t = high == low ? 0 : (log10(max(value, domain.0)) - low) / (high - low)
        return range.0 + t * (range.1 - range.0)
    }

    /// Ticks at 1, 2 and 5 times each power of ten inside `low...high` (widened to decades),
    /// or only the powers of ten when that makes more than 12 ticks.
    static func ticks(_ low: Double, _ high: Double) -> (bounds: (Double, Double), ticks: [Double]) {
        let first = floor(log10(low)), last = ceil(log10(high))
        let bounds = (pow(10, first), pow(10, max(last, first + 1)))
        var ticks: [Double] = []
        for exponent in Int(first)...Int(max(last, first + 1)) {
            for factor in [1.0, 2.0, 5.0] {
                let value = factor * pow(10, Double(exponent))
                if value >= bounds.0 * 0.999 && value <= bounds.1 * 1.001 { ticks.append(value) }
            }
        }
        if ticks.count > 12 { ticks = ticks.filter { abs(log10($0).rounded() - log10($0)) < 1e-9 } }
        return (bounds, ticks)
    }
}

/// A linear or logarithmic mapping chosen at draw time.
enum ValueMapping {
    case linear(LinearScale)
    case logarithmic(LogScale)

    func callAsFunction(_ value: Double) -> Double {
        switch self {
        case .linear(let scale): scale(value)
        case .logarithmic(let scale): scale(value)
        }
    }

    /// Where a bar starts: zero on a linear axis, the lower end on a logarithmic one.
    var baseline: Double {
        switch self {
        case .linear(let scale): scale(0)
        case .logarithmic(let scale): scale.range.0
        }
    }
}
