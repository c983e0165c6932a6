/// The outcome of one benchmark: every measured run time and what they add up to.
///
/// Shows itself in a notebook as a small table (HTML) or one line of text.
public struct BenchmarkResult: Sendable, Equatable, Codable {
    /// What was measured.
    public var name: String
    /// The rules the benchmark ran with (including the thread count).
    public var options: BenchmarkOptions
    /// Time of the set-up closure (model load and initialisation), when there was one.
    public var initSeconds: Double?
    /// Time of the very first run, before any warm-up.
    public var firstRunSeconds: Double
    /// How many warm-up runs were made.
    public var warmupRuns: Int
    /// How long the warm-up took.
    public var warmupSeconds: Double
    /// The measured run times in seconds, in the order measured: one per run, or, past
    /// ``BenchmarkOptions/maximumSamples``, each the mean of ``runsPerSample`` consecutive runs.
    public var samples: [Double]
    /// How many consecutive runs each sample is the mean of (1 until the sample cap was
    /// reached); nil in records written before the cap.
    public var runsPerSample: Int?
    /// How many runs were measured (the samples times ``runsPerSample``); nil in records
    /// written before the cap (there, one sample is one run).
    public var runs: Int?
    /// Wall time of the measured phase.
    public var measuredSeconds: Double
    /// True when ``BenchmarkOptions/maximumSeconds`` stopped the runs before
    /// ``BenchmarkOptions/minimumRuns`` was reached.
    public var stoppedAtTimeLimit: Bool
    /// Peak resident memory of the process after the runs (the high-water mark since the
    /// process started, so it includes everything loaded before).
    public var peakResidentBytes: Int
    /// Statistics of ``samples``.
    public var statistics: LatencyStatistics
    /// What else the machine was doing while the runs were measured, and whether that took
    /// cores this benchmark's threads needed; `nil` when `/proc` could not be read (and in
    /// records written before it was measured).
    public var contention: CPUContention?
    /// The ``label``s of the other variants measured in the same rounds (A B A B …), when the
    /// result comes from ``Benchmark/interleave(_:)``; run `i` of each was measured in round
    /// `i`. `nil` when measured on its own.
    public var interleavedWith: [String]?
    /// CPU time of this process, all threads, user + system, during each measured run (per
    /// call with inner iterations; past the sample cap, the mean of the runs of the sample
    /// with the same index), in seconds, in the order of ``samples``: what a run costs
    /// the machine, where ``samples`` is how long it made the caller wait. `nil` in records
    /// written before it was measured. Read from `CLOCK_PROCESS_CPUTIME_ID` around each run:
    /// the kernel adds another thread's time at its next switch or tick, so a single value can
    /// be off by a tick's worth of a worker thread's time while the mean (``cpuPerRun``) is
    /// exact, since one run's end is the next run's start.
    public var cpuSamples: [Double]?
    /// The runs' energy from the RAPL counters, or the one-line reason this machine has none;
    /// `nil` in records written before it was measured.
    public var energy: EnergyPerRun?
    /// The run times of each fresh worker process, in the order the processes ran, when the
    /// result was measured across processes (``Benchmark/acrossProcesses(_:processes:)``);
    /// ``samples`` holds them all, concatenated. `nil` when measured in one process.
    public var processSamples: [[Double]]?

    /// Creates a result from measurements (the benchmark does this; tests and records may too).
    public init(
        name: String, options: BenchmarkOptions, initSeconds: Double?, firstRunSeconds: Double,
        warmupRuns: Int, warmupSeconds: Double, samples: [Double], measuredSeconds: Double,
        stoppedAtTimeLimit: Bool, peakResidentBytes: Int, contention: CPUContention? = nil,
        interleavedWith: [String]? = nil, cpuSamples: [Double]? = nil, energy: EnergyPerRun? = nil
    ) {
        self.cpuSamples = cpuSamples
        self.energy = energy
        self.contention = contention
        self.interleavedWith = interleavedWith
        self.name = name
        self.options = options
        self.initSeconds = initSeconds
        self.firstRunSeconds = firstRunSeconds
        self.warmupRuns = warmupRuns
        self.warmupSeconds = warmupSeconds
        self.samples = samples
        self.measuredSeconds = measuredSeconds
        self.stoppedAtTimeLimit = stoppedAtTimeLimit
        self.peakResidentBytes = peakResidentBytes
        self.statistics = LatencyStatistics(samples: samples)
    }

    /// The thread count the runs used.
    public var threads: Int { options.threads }

    /// How many runs were measured.
    public var runCount: Int { runs ?? samples.count }

    /// True when the samples summarise several runs each (the sample cap was reached).
    public var summarisesRuns: Bool { (runsPerSample ?? 1) > 1 }

    /// The median with its 95 % interval: across processes (``AcrossProcesses/median(of:)``)
    /// when measured in 2 or more, otherwise the bootstrap of this process's ``samples``,
    /// which covers only the process that measured it (``intervalCoverage`` says which).
    public var medianInterval: ConfidenceInterval {
        if let processes = processSamples, processes.count >= 2 { return AcrossProcesses.median(of: processes) }
        return Bootstrap.percentile(50, of: samples)
    }

    /// How many processes the result was measured in (1 unless measured across processes).
    public var processCount: Int { max(processSamples?.count ?? 1, 1) }

    /// What the figure rests on and what its interval covers, for example "5 processes × 30
    /// runs; interval across processes" or "1 process × 120 runs; interval within that one
    /// process (a new process may land outside it)".
    public var intervalCoverage: String {
        if let processes = processSamples, processes.count >= 2 {
            let counts = processes.map(\.count)
            let runs = counts.min() == counts.max() ? "\(counts[0])" : "\(counts.min() ?? 0)–\(counts.max() ?? 0)"
            return "\(processes.count) processes × \(runs) runs; interval across processes"
        }
        return "1 process × \(CountFormat.string(runCount)) runs; interval within that one process (a new process may land outside it)"
    }

    /// The p90 with its 95 % interval, across processes or within one as ``medianInterval``.
    public var p90Interval: ConfidenceInterval {
        if let processes = processSamples, processes.count >= 2 { return AcrossProcesses.percentile(90, of: processes) }
        return Bootstrap.percentile(90, of: samples)
    }

    /// Whether other work took cores this benchmark's threads needed (see ``CPUContention``).
    public var isContended: Bool { contention?.isContended ?? false }

    /// One line: p90 first (the headline figure), then median, mean ± std and run count.
    public var summary: String {
        let s = statistics
        var text = "p90 \(DurationFormat.string(s.p90)), median \(DurationFormat.string(s.median)), "
            + "mean \(DurationFormat.string(s.mean)) ± \(DurationFormat.string(s.standardDeviation)) "
            + "over \(CountFormat.string(runCount)) runs"
        if summarisesRuns, let each = runsPerSample {
            text += " (kept as \(CountFormat.string(s.count)) samples of \(each) runs each, the sample cap: "
                + "the figures are of those means)"
        }
        if options.innerIterations > 1 { text += " of \(options.innerIterations) calls" }
        if stoppedAtTimeLimit { text += " (stopped at the \(DurationFormat.string(options.maximumSeconds)) limit)" }
        if isContended { text += " (contended: other work took cores its threads needed)" }
        return text
    }

    /// Compares this result with a baseline: the ratio of medians with its interval, a rank
    /// test and a ``Verdict``. Results measured in the same interleaved rounds are compared
    /// round by round.
    /// - Parameters:
    ///   - baseline: the result to compare against.
    ///   - equivalenceBand: how close to 1 the whole interval must be for *equivalent* (0.05: ±5 %).
    public func compared(with baseline: BenchmarkResult,
                         equivalenceBand: Double = VerdictRule.defaultEquivalenceBand) -> BenchmarkComparison {
        let inTurns = interleavedWith?.contains(baseline.label) ?? false || baseline.interleavedWith?.contains(label) ?? false
        let paired = samples.count == baseline.samples.count && inTurns
        // Thread counts tell apart two results of the same name.
        let sameName = name == baseline.name
        if let mine = processSamples, let theirs = baseline.processSamples, mine.count >= 2, theirs.count >= 2 {
            return BenchmarkComparison(
                baselineName: sameName ? baseline.label : baseline.name, baselineProcesses: theirs,
                candidateName: sameName ? label : name, candidateProcesses: mine,
                inTurns: inTurns && mine.count == theirs.count, equivalenceBand: equivalenceBand)
        }
        var comparison = BenchmarkComparison(
            baselineName: sameName ? baseline.label : baseline.name, baseline: baseline.samples,
            candidateName: sameName ? label : name, candidate: samples, interleaved: paired,
            equivalenceBand: equivalenceBand)
        // Past the sample cap a sample is the mean of several runs: the runs it came from, and
        // the runs that would decide it, are counted in runs, not samples.
        comparison.runs = min(baseline.runCount, runCount)
        return comparison
    }

    /// The name with the thread count, for example "TFLite fp32 · 2 threads".
    public var label: String { "\(name) · \(threads) thread\(threads == 1 ? "" : "s")" }
}
