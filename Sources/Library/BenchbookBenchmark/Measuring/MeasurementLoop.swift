import BenchbookRuntime

/// The timing loop behind ``Benchmark``. Kept small: per run it reads the clock twice,
/// adds one number and polls the interrupt flag; the run's CPU time (and energy, where
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

        // Measured runs, kept as at most `maximumSamples` samples: once that many are kept,
        // neighbours are summed two by two and each later sample sums twice as many runs.
        let minimumNanoseconds = UInt64(options.minimumSeconds * 1e9)
        let maximumNanoseconds = UInt64(options.maximumSeconds * 1e9)
        var samples = SampleGroups(maximumSamples: options.maximumSamples)
        // Its CPU and energy samples are grouped like the run times, run for run.
        var costs = RunCosts(energy: EnergyMeter.forBenchmarks(), maximumSamples: options.maximumSamples)
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
            let grouped = samples.add(end &- start)
            elapsed = end &- measureStart
            // Decided between groups only, so every sample sums the same number of runs.
            guard grouped else { continue }
            if samples.runs >= options.minimumRuns && elapsed >= minimumNanoseconds { break }
            if elapsed >= maximumNanoseconds { stoppedAtLimit = true; break }
            progress.tick(phase: "measuring", runs: samples.runs, since: measureStart)
        }
        let contention = countersBefore.flatMap { before in
            CPUCounters.read().map { CPUCounters.contention(from: before, to: $0, threads: options.threads) }
        }
        var result = BenchmarkResult(
            name: name, options: options, initSeconds: initSeconds, firstRunSeconds: firstRun,
            warmupRuns: warmupRuns, warmupSeconds: warmupSeconds,
            samples: samples.means(scale: 1e-9 / Double(inner)),
            measuredSeconds: seconds(elapsed), stoppedAtTimeLimit: stoppedAtLimit,
            peakResidentBytes: peakResidentBytes(), contention: contention,
            cpuSamples: costs.cpuSeconds(inner: inner), energy: costs.energy(inner: inner))
        result.runsPerSample = samples.runsPerSample
        result.runs = samples.runs
        progress.finish(result)
        return result
    }
}
