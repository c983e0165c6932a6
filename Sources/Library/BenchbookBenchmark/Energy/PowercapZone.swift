/// One energy counter of Linux's powercap framework (`/sys/class/powercap`): a RAPL zone
/// such as `intel-rapl:0` (name `package-0`, the whole processor package) or one of its
/// subzones such as `intel-rapl:0:0` (`core`), `intel-rapl:0:1` (`uncore`) or `dram`.
///
/// A subzone's energy is part of its package's, so only packages are added up.
public struct PowercapZone: Sendable, Equatable, Codable {
    /// The zone's directory name, for example `intel-rapl:0:1`.
    public var identifier: String
    /// The zone's `name` file, for example `package-0` or `core`.
    public var name: String
    /// `max_energy_range_uj`: where `energy_uj` wraps around to 0, in microjoules.
    public var maximumMicrojoules: UInt64
    /// The package zone's identifier for a subzone; `nil` for a package.
    public var parent: String?

    /// Creates a zone description (``EnergyMeter`` finds them; tests may build one).
    /// - Parameters:
    ///   - identifier: the directory name.
    ///   - name: the zone's name.
    ///   - maximumMicrojoules: the counter's range.
    ///   - parent: the package's identifier for a subzone.
    public init(identifier: String, name: String, maximumMicrojoules: UInt64, parent: String? = nil) {
        self.identifier = identifier
        self.name = name
        self.maximumMicrojoules = maximumMicrojoules
        self.parent = parent
    }

    /// Whether the zone is a whole package (not a part of one).
    public var isPackage: Bool { parent == nil }

    /// Microjoules counted from `before` to `after`, across one wrap-around of the counter
    /// when `after` is below `before` (`after + max_energy_range_uj − before`, as turbostat and
    /// the kernel's own tools count; a counter that wrapped twice between two readings cannot
    /// be told apart, which at a package's power takes tens of minutes).
    /// - Parameters:
    ///   - before: the earlier `energy_uj`.
    ///   - after: the later `energy_uj`.
    /// - Returns: the energy in microjoules.
    public func microjoules(from before: UInt64, to after: UInt64) -> UInt64 {
        after >= before ? after - before : after &+ (maximumMicrojoules &- min(before, maximumMicrojoules))
    }
}

/// Why powercap's counters could not be read.
public enum PowercapError: Error, Equatable, CustomStringConvertible {
    /// A counter file could not be opened or read (missing, a directory, no permission).
    case unreadable(path: String, reason: String)
    /// A counter file did not hold a whole number.
    case malformed(path: String, text: String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path) cannot be read (\(reason)); Linux lets only root read RAPL counters since 5.10"
                + " (CVE-2020-8694): run as root, or make the file readable"
        case .malformed(let path, let text):
            return "\(path) holds \"\(text)\", not a number of microjoules"
        }
    }
}
