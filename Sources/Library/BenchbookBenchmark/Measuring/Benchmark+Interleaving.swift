import BenchbookRuntime

extension Benchmark {
    /// Measures variants in turns, one run of each per round, so that whatever the machine
    /// does meanwhile (another process, frequency changes, a warm cache) hits every variant
    /// alike: the way to measure a comparison.
    ///
    /// Rounds alternate their order (A B, B A, A B, …), so no variant always runs right after
    /// the same one. Each variant is set up once (its init time), runs once on its own (its
    /// first run), then warm-up rounds run until every variant has ``BenchmarkOptions/warmupRuns``
    /// runs and the rounds have lasted ``BenchmarkOptions/minimumWarmupSeconds``, then measured
    /// rounds until every variant has ``BenchmarkOptions/minimumRuns`` runs and the rounds have
    /// lasted ``BenchmarkOptions/minimumSeconds`` (at most ``BenchmarkOptions/maximumSeconds``
    /// per variant). In turns the slowest variant sets the pace, so the minimum time is the
    /// rounds', not each variant's own. Every variant has one run per round, so run `i` of each
    /// comes from round `i`; ``BenchmarkResult/compared(with:)`` uses that pairing.
    ///
    /// ```swift
    /// let input = try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0.5, count: 784))
    /// func variant(_ threads: Int) -> BenchmarkVariant {
    ///     BenchmarkVariant("fashion_cnn.ptl", threads: threads,
    ///         setUp: { threads in try Model(contentsOf: "models/fashion_cnn.ptl", options: ModelOptions(threads: threads)) },
    ///         measure: { model in _ = try model.run(input) })
    /// }
    /// let table = try Benchmark("1 vs 2 threads", options: .quick).interleave([variant(1), variant(2)])
    /// table.results[1].compared(with: table.results[0])     // 2 threads against 1, round by round
    /// ```
    /// - Parameter variants: what to compare, in order.
    /// - Returns: one row per variant, in the order given.
    /// - Throws: ``BenchmarkError/emptySweep``, ``BenchmarkError/invalidOptions(_:)``,
    ///   `InterruptedError`, or what the variants throw.
    public func interleave(_ variants: [BenchmarkVariant]) throws -> BenchmarkTable {
        guard !variants.isEmpty else { throw BenchmarkError.emptySweep }
        try validate()
        var turns = InterleavedTurns(name: name, options: options, variants: variants)
        try turns.prepare()
        try turns.warmUp()
        try turns.measure()
        return BenchmarkTable(title: name, results: turns.results())
    }
}

/// The state of an interleaved measurement: per variant its run closure and what it has
/// measured so far. Kept apart from ``MeasurementLoop`` so that the single-variant loop stays
/// as small as it is.
private struct InterleavedTurns {
    struct Entry {
        let name: String
        let options: BenchmarkOptions
        var run: () throws -> Void = {}
        var initSeconds: Double?
        var firstRun = 0.0
        var warmupRuns = 0
        var warmupNanoseconds: UInt64 = 0
        /// Round `i`'s run is in group `i / runsPerSample` of every variant: all variants
        /// add one run a round, so their groups close and merge in the same rounds.
        var samples: SampleGroups
        /// CPU time and energy, grouped like ``samples``.
        var costs: RunCosts

        var label: String { "\(name) · \(options.threads) thread\(options.threads == 1 ? "" : "s")" }
    }

    let name: String
    let options: BenchmarkOptions
    let variants: [BenchmarkVariant]
    var entries: [Entry]
    var progress: ProgressLine
    var stoppedAtLimit = false
    var measuredPhase: UInt64 = 0
    var contention: CPUContention?

    init(name: String, options: BenchmarkOptions, variants: [BenchmarkVariant]) {
        self.name = name
        self.options = options
        self.variants = variants
        let energy = EnergyMeter.forBenchmarks()
        entries = variants.map { variant in
            var variantOptions = options
            if let threads = variant.threads { variantOptions.threads = threads }
            return Entry(name: variant.name, options: variantOptions,
                         samples: SampleGroups(maximumSamples: options.maximumSamples),
                         costs: RunCosts(energy: energy, maximumSamples: options.maximumSamples))
        }
        progress = ProgressLine(name: name, enabled: options.showsProgress)
    }

    private var activity: String { "The benchmark \"\(name)\"" }

    /// Sets every variant up (timed as its init) and times its first run.
    mutating func prepare() throws {
        for index in entries.indices {
            try Interrupt.check(activity)
            let start = monotonicNanoseconds()
            entries[index].run = try variants[index].prepare(entries[index].options.threads)
            if variants[index].hasSetUp { entries[index].initSeconds = seconds(monotonicNanoseconds() &- start) }
        }
        for index in entries.indices {
            try Interrupt.check(activity)
            let start = monotonicNanoseconds()
            try entries[index].run()
            entries[index].firstRun = seconds(monotonicNanoseconds() &- start)
        }
    }

    /// Warm-up rounds until every variant has its warm-up runs and the rounds their time.
    mutating func warmUp() throws {
        let start = monotonicNanoseconds()
        let limit = UInt64(options.minimumWarmupSeconds * 1e9)
        var round = 0
        while entries.contains(where: { $0.warmupRuns < options.warmupRuns }) || monotonicNanoseconds() &- start < limit {
            for index in order(round) {
                try Interrupt.check(activity)
                let runStart = monotonicNanoseconds()
                try entries[index].run()
                entries[index].warmupNanoseconds &+= monotonicNanoseconds() &- runStart
                entries[index].warmupRuns += 1
            }
            round += 1
            progress.tick(phase: "warming up", runs: round, since: start)
        }
    }

    /// Measured rounds until every variant has its runs and the rounds their time, or the
    /// time limit.
    mutating func measure() throws {
        let minimum = UInt64(options.minimumSeconds * 1e9)
        let maximum = UInt64(options.maximumSeconds * 1e9) &* UInt64(entries.count)
        let countersBefore = CPUCounters.read()
        let start = monotonicNanoseconds()
        var round = 0
        var grouped = false
        while true {
            for index in order(round) {
                try Interrupt.check(activity)
                let mark = entries[index].costs.begin()
                let runStart = monotonicNanoseconds()
                try entries[index].run()
                let runEnd = monotonicNanoseconds()
                entries[index].costs.end(mark)
                grouped = entries[index].samples.add(runEnd &- runStart)
            }
            round += 1
            measuredPhase = monotonicNanoseconds() &- start
            guard grouped else { continue }   // decided between groups only, as in one variant's loop
            if measuredPhase >= minimum && entries.allSatisfy({ $0.samples.runs >= options.minimumRuns }) { break }
            if measuredPhase >= maximum {
                stoppedAtLimit = entries.contains { $0.samples.runs < options.minimumRuns }
                break
            }
            progress.tick(phase: "measuring in turns", runs: round, since: start)
        }
        contention = countersBefore.flatMap { before in
            CPUCounters.read().map { CPUCounters.contention(from: before, to: $0, threads: options.threads) }
        }
    }

    /// The variants' order in a round: forward in even rounds, backward in odd ones.
    func order(_ round: Int) -> [Int] {
        round % 2 == 0 ? Array(entries.indices) : entries.indices.reversed()
    }

    /// One result per variant.
    func results() -> [BenchmarkResult] {
        let labels = entries.map(\.label)
        let peak = peakResidentBytes()
        let results = entries.map { entry in
            var result = BenchmarkResult(
                name: entry.name, options: entry.options, initSeconds: entry.initSeconds, firstRunSeconds: entry.firstRun,
                warmupRuns: entry.warmupRuns, warmupSeconds: seconds(entry.warmupNanoseconds),
                samples: entry.samples.means(scale: 1e-9),
                measuredSeconds: seconds(measuredPhase),
                stoppedAtTimeLimit: stoppedAtLimit, peakResidentBytes: peak,
                contention: contention?.with(threads: entry.options.threads),
                interleavedWith: labels.filter { $0 != entry.label },
                cpuSamples: entry.costs.cpuSeconds(inner: 1), energy: entry.costs.energy(inner: 1))
            result.runsPerSample = entry.samples.runsPerSample
            result.runs = entry.samples.runs
            return result
        }
        progress.finish("done, \(entries.first?.samples.runs ?? 0) rounds of \(entries.count) variant\(entries.count == 1 ? "" : "s")")
        return results
    }
}
