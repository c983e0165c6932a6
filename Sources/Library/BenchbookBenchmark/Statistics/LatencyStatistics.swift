/// Summary statistics of a set of per-run times.
///
/// Definitions (chosen to match NumPy's defaults, so figures agree with a Python notebook):
/// - ``standardDeviation`` is the population standard deviation (`numpy.std`, `ddof=0`).
/// - percentiles use linear interpolation between closest ranks (`numpy.percentile`,
///   `method="linear"`): for `n` sorted values and percentile `p`, the position is
///   `h = (n - 1) * p / 100` and the value is `x[⌊h⌋] + (h - ⌊h⌋) * (x[⌊h⌋ + 1] - x[⌊h⌋])`.
///
/// All times are in seconds.
public struct LatencyStatistics: Sendable, Equatable, Codable {
    /// How many samples the statistics describe.
    public var count: Int
    /// The fastest run.
    public var minimum: Double
    /// The 50th percentile.
    public var median: Double
    /// The arithmetic mean.
    public var mean: Double
    /// Population standard deviation (NumPy `std` with `ddof=0`).
    public var standardDeviation: Double
    /// The 90th percentile: the headline figure of MLPerf Mobile's single-stream scenario.
    public var p90: Double
    /// The 99th percentile.
    public var p99: Double
    /// The slowest run.
    public var maximum: Double

    /// Computes the statistics of `samples`.
    /// - Parameter samples: per-run times in seconds; may be empty (every figure is then 0).
    public init(samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        guard !sorted.isEmpty else {
            minimum = 0; median = 0; mean = 0; standardDeviation = 0; p90 = 0; p99 = 0; maximum = 0
            return
        }
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
        median = Self.percentile(50, ofSorted: sorted)
        p90 = Self.percentile(90, ofSorted: sorted)
        p99 = Self.percentile(99, ofSorted: sorted)
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        self.mean = mean
        let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        standardDeviation = (squares / Double(sorted.count)).squareRoot()
    }

    /// The `p`-th percentile of `samples` by linear interpolation (NumPy's default method).
    /// - Parameters:
    ///   - p: the percentile, from 0 to 100.
    ///   - samples: the values, in any order; must not be empty.
    /// - Returns: the interpolated value, or 0 when `samples` is empty.
    public static func percentile(_ p: Double, of samples: [Double]) -> Double {
        percentile(p, ofSorted: samples.sorted())
    }

    /// The `p`-th percentile of already sorted values.
    static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let clamped = min(max(p, 0), 100)
        let position = Double(sorted.count - 1) * clamped / 100
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        let a = sorted[lower], b = sorted[upper]
        // NumPy's lerp form: exact at both ends, monotonic in between.
        return fraction < 0.5 ? a + (b - a) * fraction : b - (b - a) * (1 - fraction)
    }
}
