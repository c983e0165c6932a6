import Foundation

/// Two-sided 95 % quantiles of Student's t distribution, for intervals over a handful of
/// processes (where the normal quantile 1.96 would be far too narrow: with 5 processes the
/// quantile is 2.78).
enum StudentT {
    /// The 0.975 quantile for 1 to 30 degrees of freedom (index 0 is 1 degree).
    static let table: [Double] = [
        12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252,
        2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830, 2.160368656, 2.144786688,
        2.131449546, 2.119905299, 2.109815578, 2.100922040, 2.093024054, 2.085963447, 2.079613845,
        2.073873068, 2.068657610, 2.063898562, 2.059538553, 2.055529439, 2.051830516, 2.048407142,
        2.045229642, 2.042272456,
    ]

    /// The 0.975 quantile of t with `degrees` degrees of freedom: the table up to 30 (linear
    /// in 1/df between whole degrees, for Welch's fractional counts), the Cornish–Fisher
    /// expansion above (within 1e-4 of the exact value from 30 on).
    /// - Parameter degrees: degrees of freedom, at least 1; NaN below.
    static func quantile975(degrees: Double) -> Double {
        guard degrees >= 1, degrees.isFinite else { return degrees.isInfinite ? Bootstrap.z : .nan }
        if degrees <= 30 {
            let low = Int(degrees.rounded(.down)), high = min(low + 1, 30)
            guard high != low, degrees != Double(low) else { return table[low - 1] }
            let weight = (1 / Double(low) - 1 / degrees) / (1 / Double(low) - 1 / Double(high))
            return table[low - 1] + weight * (table[high - 1] - table[low - 1])
        }
        let z = Bootstrap.z, z3 = z * z * z, z5 = z3 * z * z
        return z + (z3 + z) / (4 * degrees) + (5 * z5 + 16 * z3 + 3 * z) / (96 * degrees * degrees)
    }
}
