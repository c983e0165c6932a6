import BenchbookSettings
import Foundation

/// Reads the RAPL energy counters Linux exposes under `/sys/class/powercap`, where the
/// processor has them (Intel since Sandy Bridge, AMD since Zen with Linux 5.8 or later)
/// and the machine shows them (virtual machines usually do not).
///
/// ```swift
/// switch EnergyMeter.open() {
/// case .available(let meter):
///     let before = try meter.read()
///     // … the work …
///     let joules = meter.joules(from: before, to: try meter.read())   // per zone
///     print(joules)
/// case .unavailable(let reason):
///     print("energy:", reason)   // "not available on this machine: no /sys/class/powercap"
/// }
/// ```
///
/// The counters are the processor's own estimate of its energy, for the whole package:
/// every process and the idle cores count, not only this one. Thread rules: a meter is a
/// value; reading it from several threads at once is safe.
public struct EnergyMeter: Sendable, Equatable {
    /// Where Linux puts powercap's zones.
    public static let defaultRoot = "/sys/class/powercap"
    /// The environment variable that points benchmarks at another directory laid out like
    /// powercap (tests use it); unset, benchmarks read ``defaultRoot``.
    public static let rootVariable = "BENCHBOOK_POWERCAP_ROOT"

    /// Whether a machine's counters can be read, and if not, why.
    public enum Availability: Sendable, Equatable {
        /// The counters were found and read.
        case available(EnergyMeter)
        /// One line saying why not, for example "not available on this machine: no /sys/class/powercap".
        case unavailable(reason: String)
    }

    /// The directory the zones were found in.
    public let root: String
    /// Every zone with an energy counter, packages first, each followed by its subzones.
    public let zones: [PowercapZone]

    /// Finds the zones under `root` and reads each counter once.
    ///
    /// A zone is a directory whose name has a `:` (`intel-rapl:0`, `intel-rapl:0:1`) and
    /// which holds `energy_uj`; the control-type directory (`intel-rapl`) is not one. The
    /// first colon-separated part after the control type's name is the package.
    /// - Parameter root: a directory laid out like `/sys/class/powercap`.
    /// - Returns: the meter, or the reason it cannot be had here (never a made-up figure).
    public static func open(root: String = defaultRoot) -> Availability {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .unavailable(reason: "not available on this machine: no \(root)")
        }
        let names = ((try? files.contentsOfDirectory(atPath: root)) ?? []).filter { $0.contains(":") }
        let candidates = names.filter { files.fileExists(atPath: "\(root)/\($0)/energy_uj") }
        guard !candidates.isEmpty else {
            return .unavailable(reason: "not available on this machine: \(root) has no zone with an energy_uj counter")
        }
        var zones: [PowercapZone] = []
        do {
            for identifier in candidates.sorted(by: zoneOrder) {
                let directory = "\(root)/\(identifier)"
                let name = try readLine("\(directory)/name")
                let maximum = try readNumber("\(directory)/max_energy_range_uj")
                let parts = identifier.split(separator: ":")
                let parent = parts.count > 2 ? parts.prefix(2).joined(separator: ":") : nil
                zones.append(PowercapZone(identifier: identifier, name: name, maximumMicrojoules: maximum,
                                          parent: parent.flatMap { candidates.contains($0) ? $0 : nil }))
                _ = try readNumber("\(directory)/energy_uj")
            }
        } catch {
            return .unavailable(reason: "not available on this machine: \(error)")
        }
        return .available(EnergyMeter(root: root, zones: zones))
    }

    /// The meter benchmarks use: ``open(root:)`` on `$BENCHBOOK_POWERCAP_ROOT` when set, else
    /// on ``defaultRoot``.
    public static func forBenchmarks() -> Availability {
        let root = LibrarySettings.current.powercapRoot
        return open(root: root ?? defaultRoot)
    }

    /// Every zone's counter now, in ``zones``' order, in microjoules.
    /// - Throws: ``PowercapError`` when a counter cannot be read or is not a number.
    public func read() throws -> [UInt64] {
        try zones.map { try Self.readNumber("\(root)/\($0.identifier)/energy_uj") }
    }

    /// Joules each zone counted between two readings (wrap-around included), in ``zones``' order.
    /// - Parameters:
    ///   - before: a reading from ``read()``.
    ///   - after: a later reading.
    /// - Returns: joules per zone.
    public func joules(from before: [UInt64], to after: [UInt64]) -> [Double] {
        zip(zones, zip(before, after)).map { zone, pair in Double(zone.microjoules(from: pair.0, to: pair.1)) * 1e-6 }
    }

    /// The packages' joules added up (subzones are parts of their package).
    /// - Parameter joules: per zone, from ``joules(from:to:)``.
    /// - Returns: the joules of all packages.
    public func packageJoules(_ joules: [Double]) -> Double {
        zip(zones, joules).reduce(0) { $0 + ($1.0.isPackage ? $1.1 : 0) }
    }

    /// Packages by number, each before its subzones.
    private static func zoneOrder(_ a: String, _ b: String) -> Bool {
        let numbers = { (s: String) in s.split(separator: ":").dropFirst().map { Int($0) ?? 0 } }
        let x = numbers(a), y = numbers(b)
        return x.lexicographicallyPrecedes(y) || (x == y && a < b)
    }

    private static func readNumber(_ path: String) throws -> UInt64 {
        let text = try readLine(path)
        guard let value = UInt64(text) else { throw PowercapError.malformed(path: path, text: text) }
        return value
    }

    /// The file's first line without its newline.
    private static func readLine(_ path: String) throws -> String {
        guard let file = fopen(path, "r") else {
            throw PowercapError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else {
            let reason = ferror(file) != 0 ? String(cString: strerror(errno)) : "empty"
            throw PowercapError.unreadable(path: path, reason: reason)
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
