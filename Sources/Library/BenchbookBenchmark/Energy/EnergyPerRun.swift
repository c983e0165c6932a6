/// The energy a benchmark's runs cost, from the RAPL counters (``EnergyMeter``), or the
/// reason there is no figure on this machine.
///
/// Each counter is read before and after every measured run, outside its wall-clock window;
/// a run's energy is the difference. The counters are the package's: whatever else the
/// machine did during a run is in its joules (compare with the machine idle before
/// concluding), and RAPL updates them about once a millisecond, so a single sub-millisecond
/// run reads 0 or a whole update; the mean over many runs is what to use.
public struct EnergyPerRun: Sendable, Equatable, Codable {
    /// The zones read, packages first, each followed by its subzones; empty when unavailable.
    public var zones: [PowercapZone]
    /// Mean joules per run of each zone, in ``zones``' order.
    public var joulesPerRun: [Double]
    /// The packages' joules of each measured run (per call with inner iterations; past the
    /// sample cap, the mean of the runs each latency sample summarises), in run order.
    public var packageSamples: [Double]
    /// Why there is no figure, for example "not available on this machine: no /sys/class/powercap";
    /// `nil` when the counters were read.
    public var unavailableReason: String?

    /// A measurement from the counters.
    /// - Parameters:
    ///   - zones: the zones read.
    ///   - joulesPerRun: mean joules per run of each zone.
    ///   - packageSamples: the packages' joules of each run.
    public init(zones: [PowercapZone], joulesPerRun: [Double], packageSamples: [Double]) {
        self.zones = zones
        self.joulesPerRun = joulesPerRun
        self.packageSamples = packageSamples
        self.unavailableReason = nil
    }

    /// No figure, and why.
    /// - Parameter reason: one line, for example from ``EnergyMeter/Availability/unavailable(reason:)``.
    public init(unavailable reason: String) {
        zones = []
        joulesPerRun = []
        packageSamples = []
        unavailableReason = reason
    }

    /// Whether the counters were read.
    public var isAvailable: Bool { unavailableReason == nil }

    /// The packages' joules per run with its 95 % bootstrap interval; `nil` when unavailable.
    public var packagePerRun: ConfidenceInterval? {
        isAvailable && !packageSamples.isEmpty ? Bootstrap.mean(of: packageSamples) : nil
    }

    /// One line: the package figure with its interval and each subzone's mean, or the reason.
    public var summary: String {
        guard let package = packagePerRun else { return unavailableReason ?? "no runs" }
        let parts = zip(zones, joulesPerRun).filter { !$0.0.isPackage }.map { "\($0.0.name) \(EnergyFormat.string($0.1))" }
        return "\(EnergyFormat.interval(package)) (packages)" + (parts.isEmpty ? "" : "; " + parts.joined(separator: ", "))
    }
}

/// Joules for text, in the unit that keeps three significant digits.
enum EnergyFormat {
    static func string(_ joules: Double) -> String {
        let (value, unit) = scaled(joules)
        return DurationFormat.number(value) + " " + unit
    }

    /// "12.3 mJ (11.9–12.8)": the estimate and its interval in one unit, as ``IntervalFormat`` writes times.
    static func interval(_ interval: ConfidenceInterval) -> String {
        let top = max(abs(interval.estimate), abs(interval.upper))
        let (unit, factor) = top >= 1 || top == 0 ? ("J", 1.0) : top >= 1e-3 ? ("mJ", 1e3) : ("µJ", 1e6)
        let decimals = IntervalFormat.decimalsFor(interval.estimate * factor)
        func number(_ value: Double) -> String { DurationFormat.fixed(value * factor, decimals: decimals) }
        return "\(number(interval.estimate)) \(unit) (\(number(interval.lower))–\(number(interval.upper)))"
    }

    private static func scaled(_ joules: Double) -> (Double, String) {
        let size = abs(joules)
        if size >= 1 || size == 0 { return (joules, "J") }
        if size >= 1e-3 { return (joules * 1e3, "mJ") }
        return (joules * 1e6, "µJ")
    }
}
