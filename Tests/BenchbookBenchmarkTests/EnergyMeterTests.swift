@testable import BenchbookBenchmark
import Foundation
import Testing

/// The powercap reader on temporary directories laid out like `/sys/class/powercap`.
@Suite struct EnergyMeterTests {
    /// A powercap tree: the control-type directory and zones (identifier, name, max, energy).
    static func powercap(_ zones: [(String, String, UInt64, UInt64)]) throws -> URL {
        let root = try Fixture.temporaryDirectory()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("intel-rapl"), withIntermediateDirectories: true)
        try Data("1\n".utf8).write(to: root.appendingPathComponent("intel-rapl/enabled"))
        for (identifier, name, maximum, energy) in zones {
            let zone = root.appendingPathComponent(identifier)
            try FileManager.default.createDirectory(at: zone, withIntermediateDirectories: true)
            try Data("\(name)\n".utf8).write(to: zone.appendingPathComponent("name"))
            try Data("\(maximum)\n".utf8).write(to: zone.appendingPathComponent("max_energy_range_uj"))
            try setEnergy(energy, of: identifier, in: root)
        }
        return root
    }

    static func setEnergy(_ microjoules: UInt64, of identifier: String, in root: URL) throws {
        try Data("\(microjoules)\n".utf8).write(to: root.appendingPathComponent("\(identifier)/energy_uj"))
    }

    static let twoPackages: [(String, String, UInt64, UInt64)] = [
        ("intel-rapl:1", "package-1", 262_143_328_850, 7_000),
        ("intel-rapl:0:1", "uncore", 262_143_328_850, 300),
        ("intel-rapl:0", "package-0", 1_000_000, 990_000),
        ("intel-rapl:0:0", "core", 262_143_328_850, 2_000),
    ]

    @Test func findsPackagesAndSubzonesInOrder() throws {
        let root = try Self.powercap(Self.twoPackages)
        defer { try? FileManager.default.removeItem(at: root) }
        guard case .available(let meter) = EnergyMeter.open(root: root.path) else {
            Issue.record("the meter did not open")
            return
        }
        #expect(meter.zones.map(\.identifier) == ["intel-rapl:0", "intel-rapl:0:0", "intel-rapl:0:1", "intel-rapl:1"])
        #expect(meter.zones.map(\.name) == ["package-0", "core", "uncore", "package-1"])
        #expect(meter.zones.map(\.parent) == [nil, "intel-rapl:0", "intel-rapl:0", nil])
        #expect(meter.zones[0].maximumMicrojoules == 1_000_000)
        #expect(try meter.read() == [990_000, 2_000, 300, 7_000])
    }

    @Test func countsAcrossTheWrapAround() throws {
        let root = try Self.powercap(Self.twoPackages)
        defer { try? FileManager.default.removeItem(at: root) }
        guard case .available(let meter) = EnergyMeter.open(root: root.path) else {
            Issue.record("the meter did not open")
            return
        }
        let before = try meter.read()
        // package-0 passes its 1 J range: 990,000 → 1,000,000 → 0 → 15,000 µJ is 25,000 µJ.
        try Self.setEnergy(15_000, of: "intel-rapl:0", in: root)
        try Self.setEnergy(12_000, of: "intel-rapl:0:0", in: root)
        try Self.setEnergy(7_500, of: "intel-rapl:1", in: root)
        let joules = meter.joules(from: before, to: try meter.read())
        #expect(joules.count == 4)
        #expect(close(joules[0], 0.025))
        #expect(close(joules[1], 0.010))
        #expect(joules[2] == 0)
        #expect(close(joules[3], 0.0005))
        // Subzones are parts of their package: only packages add up.
        #expect(close(meter.packageJoules(joules), 0.0255))
        #expect(PowercapZone(identifier: "z", name: "z", maximumMicrojoules: 100).microjoules(from: 100, to: 0) == 0)
        #expect(PowercapZone(identifier: "z", name: "z", maximumMicrojoules: 100).microjoules(from: 90, to: 5) == 15)
    }

    @Test func noPowercapDirectoryIsSaidInOneLine() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-powercap-\(UUID().uuidString)").path
        #expect(EnergyMeter.open(root: missing) == .unavailable(reason: "not available on this machine: no \(missing)"))
    }

    @Test func aDirectoryWithoutCountersIsNotAMeter() throws {
        let root = try Self.powercap([])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(EnergyMeter.open(root: root.path)
            == .unavailable(reason: "not available on this machine: \(root.path) has no zone with an energy_uj counter"))
    }

    @Test func unreadableAndMalformedCountersNameTheirFile() throws {
        // Root reads any file whatever its mode, so unreadable is a directory in the file's place.
        let root = try Self.powercap([("intel-rapl:0", "package-0", 1_000_000, 5)])
        defer { try? FileManager.default.removeItem(at: root) }
        let counter = root.appendingPathComponent("intel-rapl:0/energy_uj")
        try FileManager.default.removeItem(at: counter)
        try FileManager.default.createDirectory(at: counter, withIntermediateDirectories: false)
        guard case .unavailable(let reason) = EnergyMeter.open(root: root.path) else {
            Issue.record("an unreadable counter gave a meter")
            return
        }
        #expect(reason.hasPrefix("not available on this machine: \(counter.path) cannot be read (Is a directory)"))

        try FileManager.default.removeItem(at: counter)
        try Data("12 joules\n".utf8).write(to: counter)
        #expect(EnergyMeter.open(root: root.path)
            == .unavailable(reason: "not available on this machine: \(counter.path) holds \"12 joules\", not a number of microjoules"))

        let range = root.appendingPathComponent("intel-rapl:0/max_energy_range_uj")
        try Data("5\n".utf8).write(to: counter)
        try FileManager.default.removeItem(at: range)
        guard case .unavailable(let missingRange) = EnergyMeter.open(root: root.path) else {
            Issue.record("a zone without max_energy_range_uj gave a meter")
            return
        }
        #expect(missingRange.contains("\(range.path) cannot be read (No such file or directory)"))
    }

    /// Issue 37, item 8: past the sample cap, energy samples summarise the runs the run
    /// times' samples do (same index, same runs), and every run's joules are still counted.
    @Test func pastTheSampleCapEnergySamplesSummariseTheSameRuns() throws {
        let root = try Self.powercap([("intel-rapl:0", "package-0", 1_000_000_000, 0)])
        defer { try? FileManager.default.removeItem(at: root) }
        let availability = EnergyMeter.open(root: root.path)
        var costs = RunCosts(energy: availability, maximumSamples: 4)
        var times = SampleGroups(maximumSamples: 4)
        var counter: UInt64 = 0
        for run in 1...6 {   // run i costs i mJ
            let mark = costs.begin()
            counter += UInt64(run) * 1000
            try Self.setEnergy(counter, of: "intel-rapl:0", in: root)
            costs.end(mark)
            _ = times.add(UInt64(run))
        }
        let energy = costs.energy(inner: 1)
        // 4 samples reached at run 4: pairs merged; runs 5 and 6 make the third pair.
        #expect(times.runsPerSample == 2 && times.sums == [3, 7, 11])
        #expect(energy.packageSamples.count == 3)
        for (sample, expected) in zip(energy.packageSamples, [0.0015, 0.0035, 0.0055]) { #expect(close(sample, expected)) }
        #expect(close(energy.joulesPerRun[0], 0.021 / 6), "every run counted")
        #expect(costs.cpuSeconds(inner: 1).count == 3)
    }

    @Test func aCounterLostMidwayThrowsAndRunCostsSayWhy() throws {
        let root = try Self.powercap([("intel-rapl:0", "package-0", 1_000_000, 100)])
        defer { try? FileManager.default.removeItem(at: root) }
        let availability = EnergyMeter.open(root: root.path)
        guard case .available(let meter) = availability else {
            Issue.record("the meter did not open")
            return
        }
        var costs = RunCosts(energy: availability, maximumSamples: BenchmarkOptions.defaultMaximumSamples)
        let mark = costs.begin()
        try Self.setEnergy(2_100, of: "intel-rapl:0", in: root)
        costs.end(mark)
        let second = costs.begin()
        try Self.setEnergy(2_600, of: "intel-rapl:0", in: root)
        costs.end(second)
        let energy = costs.energy(inner: 1)
        #expect(energy.isAvailable)
        #expect(energy.packageSamples.count == 2)
        #expect(close(energy.packageSamples[0], 0.002) && close(energy.packageSamples[1], 0.0005))
        #expect(close(energy.joulesPerRun[0], 0.00125))
        #expect(energy.packagePerRun.map { close($0.estimate, 0.00125) } == true)
        #expect(costs.cpuSeconds(inner: 1).count == 2)

        try FileManager.default.removeItem(at: root.appendingPathComponent("intel-rapl:0/energy_uj"))
        #expect(throws: PowercapError.self) { try meter.read() }
        let third = costs.begin()
        costs.end(third)
        let lost = costs.energy(inner: 1)
        #expect(!lost.isAvailable)
        #expect(lost.unavailableReason?.contains("energy_uj cannot be read (No such file or directory)") == true)
        #expect(costs.cpuSeconds(inner: 1).count == 3)
    }
}
