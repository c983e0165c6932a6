/// Formats durations with a unit that keeps 3 significant figures readable.
public enum DurationFormat {
    /// A duration as text, for example "1.23 ms", "850 ns", "2.50 s", "0 ns".
    /// - Parameter seconds: the duration in seconds.
    public static func string(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        if magnitude == 0 { return "0 ns" }
        if magnitude >= 1 { return number(seconds) + " s" }
        if magnitude >= 1e-3 { return number(seconds * 1e3) + " ms" }
        if magnitude >= 1e-6 { return number(seconds * 1e6) + " µs" }
        return number(seconds * 1e9) + " ns"
    }

    /// A number with 3 significant figures (no exponent), for example 1.23, 12.3, 123.
    /// - Parameter value: the number.
    public static func number(_ value: Double) -> String {
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2
        return fixed(value, decimals: decimals)
    }

    /// A number with a fixed count of decimals.
    /// - Parameters:
    ///   - value: the number.
    ///   - decimals: digits after the point.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return String(value) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let whole = Int(rounded / scale)
        let fraction = Int(rounded - Double(whole) * scale)
        let sign = value < 0 && rounded > 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        let padded = String(repeating: "0", count: max(0, decimals - fractionText.count)) + fractionText
        return sign + String(whole) + "." + padded
    }
}
