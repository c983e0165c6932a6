import BenchbookRuntime

/// The timing loop behind ``Benchmark``. Kept small: per run it reads the clock twice,
/// appends one number and polls the interrupt flag; the run's CPU time (and energy, where
/// the machine has RAPL counters) is read around that window, never inside it.
struct MeasurementLoop {
    let name: String
    let options: BenchmarkOptions
    private var progress: ProgressLine

    init(name: String, options: BenchmarkOptions) {
        self.name = name
        self.options = options
        self.progress = ProgressLine(name: name, enabled: options.showsProgress)
    }

    mutating func measure(initSeconds: Double?, _ body: () throws -> Void) throws -> BenchmarkResult {
        let activity = "The benchmark \"\(name)\""
        let inner = options.innerIterations

        // First run, on its own.
        try Interrupt.check(activity)
        let firstStart = monotonicNanoseconds()
        try body()
        let firstRun = seconds(monotonicNanoseconds() &- firstStart)

        // Warm-up.
        let warmupStart = monotonicNanoseconds()
        let warmupLimit = UInt64(options.minimumWarmupSeconds * 1e9)
        var warmupRuns = 0
        while warmupRuns < options.warmupRuns || monotonicNanoseconds() &- warmupStart < warmupLimit {
            try Interrupt.check(activity)
            try body()
            warmupRuns += 1
            progress.tick(phase: "warming up", runs: warmupRuns, since: warmupStart)
        }
        let warmupSeconds = seconds(monotonicNanoseconds() &- warmupStart)

        // Measured runs.
        let minimumNanoseconds = UInt64(options.minimumSeconds * 1e9)
        let maximumNanoseconds = UInt64(options.maximumSeconds * 1e9)
        var samples: [UInt64] = []
        samples.reserveCapacity(max(options.minimumRuns, 1024))
        var costs = RunCosts(energy: EnergyMeter.forBenchmarks())
        let countersBefore = CPUCounters.read()
        let measureStart = monotonicNanoseconds()
        var elapsed: UInt64 = 0
        var stoppedAtLimit = false
        while true {
            try Interrupt.check(activity)
            let mark = costs.begin()
            let start = monotonicNanoseconds()
            if inner == 1 {
                try body()
            } else {
                for _ in 0..<inner { try body() }
            }
            let end = monotonicNanoseconds()
            costs.end(mark)
            samples.append(end &- start)
            elapsed = end &- measureStart
            if samples.count >= options.minimumRuns && elapsed >= minimumNanoseconds { break }
            if elapsed >= maximumNanoseconds { stoppedAtLimit = true; break }
            progress.tick(phase: "measuring", runs: samples.count, since: measureStart)
        }
        let contention = countersBefore.flatMap { before in
            CPUCounters.read().map { CPUCounters.contention(from: before, to: $0, threads: options.threads) }
        }
        let scale = 1e-9 / Double(inner)
        let result = BenchmarkResult(
            name: name, options: options, initSeconds: initSeconds, firstRunSeconds: firstRun,
            warmupRuns: warmupRuns, warmupSeconds: warmupSeconds,
            samples: samples.map { Double($0) * scale },
            measuredSeconds: seconds(elapsed), stoppedAtTimeLimit: stoppedAtLimit,
            peakResidentBytes: peakResidentBytes(), contention: contention,
            cpuSamples: costs.cpuSeconds(inner: inner), energy: costs.energy(inner: inner))
        progress.finish(result)
        return result
    }
}
