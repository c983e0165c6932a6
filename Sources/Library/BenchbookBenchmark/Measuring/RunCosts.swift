/// What each measured run costs besides its wall time: the process's CPU time over all
/// threads (``ProcessCPUClock``) and, where the machine has RAPL counters, the package's
/// energy (``EnergyMeter``). Read just before and just after the run's wall-clock window,
/// so the readings never lengthen a measured time. Kept as ``SampleGroups`` under the same
/// cap as the run times: given one reading per run as they are given one time per run,
/// their samples summarise the same runs.
struct RunCosts {
    /// The readings taken before a run.
    struct Mark {
        var cpu: UInt64
        var energy: [UInt64]?
    }

    private let meter: EnergyMeter?
    private var unavailableReason: String?
    private var cpuNanoseconds: SampleGroups
    private var zoneMicrojoules: [UInt64]
    private var packageMicrojoules: SampleGroups

    /// - Parameters:
    ///   - energy: the machine's counters (``EnergyMeter/forBenchmarks()``).
    ///   - maximumSamples: the run times' cap (``BenchmarkOptions/maximumSamples``).
    init(energy: EnergyMeter.Availability, maximumSamples: Int) {
        cpuNanoseconds = SampleGroups(maximumSamples: maximumSamples)
        packageMicrojoules = SampleGroups(maximumSamples: maximumSamples)
        switch energy {
        case .available(let meter):
            self.meter = meter
            zoneMicrojoules = Array(repeating: 0, count: meter.zones.count)
        case .unavailable(let reason):
            meter = nil
            unavailableReason = reason
            zoneMicrojoules = []
        }
    }

    /// Readings before a run.
    mutating func begin() -> Mark {
        var energy: [UInt64]?
        if let meter, unavailableReason == nil {
            do { energy = try meter.read() } catch { unavailableReason = "not available: \(error)" }
        }
        return Mark(cpu: ProcessCPUClock.nanoseconds(), energy: energy)
    }

    /// Readings after the run that `mark` began.
    mutating func end(_ mark: Mark) {
        let cpu = ProcessCPUClock.nanoseconds()
        _ = cpuNanoseconds.add(cpu &- mark.cpu)
        guard let meter, let before = mark.energy, unavailableReason == nil else { return }
        do {
            let after = try meter.read()
            var package: UInt64 = 0
            for (index, zone) in meter.zones.enumerated() {
                let used = zone.microjoules(from: before[index], to: after[index])
                zoneMicrojoules[index] &+= used
                if zone.isPackage { package &+= used }
            }
            _ = packageMicrojoules.add(package)
        } catch {
            unavailableReason = "not available: \(error)"
        }
    }

    /// CPU seconds of each run (or sample of runs), per call when a run made `inner` calls.
    func cpuSeconds(inner: Int) -> [Double] {
        cpuNanoseconds.means(scale: 1e-9 / Double(inner))
    }

    /// The energy of the runs, per call when a run made `inner` calls, or why there is none.
    func energy(inner: Int) -> EnergyPerRun {
        if let unavailableReason { return EnergyPerRun(unavailable: unavailableReason) }
        guard let meter, packageMicrojoules.runs > 0 else { return EnergyPerRun(unavailable: "no measured runs") }
        let calls = Double(packageMicrojoules.runs * inner)
        return EnergyPerRun(zones: meter.zones, joulesPerRun: zoneMicrojoules.map { Double($0) * 1e-6 / calls },
                            packageSamples: packageMicrojoules.means(scale: 1e-6 / Double(inner)))
    }
}
