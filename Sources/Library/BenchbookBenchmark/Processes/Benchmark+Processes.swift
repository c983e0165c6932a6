import BenchbookRuntime

extension Benchmark {
    /// Measures variants across fresh worker processes, in turns: `processes` rounds, and in
    /// each round one new process per variant (A B, then B A, …), so whatever the machine does
    /// meanwhile reaches every variant alike, and each figure's interval covers the variation
    /// between processes (``AcrossProcesses``), not only between the runs of one.
    ///
    /// Each worker loads its variant (its init time), runs it once (its first run), warms up
    /// and measures by ``options`` as ``run(setUp:measure:)`` does; its runs come back as one
    /// entry of ``BenchmarkResult/processSamples``. A progress line shows which process runs.
    ///
    /// ```swift
    /// let dir = "../models/generated/"
    /// let variants = [ModelVariant("TFLite fp32", model: dir + "efficientnet_lite0.tflite", input: .photo("data/photos/coffee.png")),
    ///                 ModelVariant("TFLite int8", model: dir + "efficientnet_lite0_int8.tflite", input: .photo("data/photos/coffee.png"))]
    /// let table = try Benchmark("fp32 vs int8", options: .quick).acrossProcesses(variants, processes: 3)
    /// table.results[1].compared(with: table.results[0])   // round by round, interval across processes
    /// ```
    /// - Parameters:
    ///   - variants: what to compare, in order.
    ///   - processes: process rounds (at least 2 for an interval across processes).
    ///   - worker: the worker executable; ``BenchmarkWorker/located(settings:)`` by default.
    /// - Returns: one row per variant, in the order given.
    /// - Throws: ``BenchmarkError/emptySweep``, ``BenchmarkError/invalidOptions(_:)``,
    ///   ``BenchmarkError/workerMissing(searched:)``, ``BenchmarkError/workerFailed(variant:reason:)``,
    ///   `InterruptedError`.
    public func acrossProcesses(_ variants: [ModelVariant], processes: Int = 5,
                                worker: BenchmarkWorker? = nil) throws -> BenchmarkTable {
        guard !variants.isEmpty else { throw BenchmarkError.emptySweep }
        guard processes >= 1 else { throw BenchmarkError.invalidOptions("processes is \(processes)") }
        try validate()
        let worker = try worker ?? BenchmarkWorker.located()
        var progress = ProgressLine(name: name, enabled: options.showsProgress)
        let start = monotonicNanoseconds()
        var measured = [[BenchmarkResult]](repeating: [], count: variants.count)
        for round in 0..<processes {
            let order = round % 2 == 0 ? Array(variants.indices) : variants.indices.reversed()
            for (step, index) in order.enumerated() {
                try Interrupt.check("The benchmark \"\(name)\"")
                progress.show("process \(round * variants.count + step + 1) of \(processes * variants.count) "
                    + "(round \(round + 1), \(variants[index].label)), \(DurationFormat.string(seconds(monotonicNanoseconds() &- start)))")
                measured[index].append(try worker.measure(variants[index], options: options))
            }
        }
        let labels = variants.map(\.label)
        let results = zip(variants, measured).map { variant, runs in
            Self.merged(runs, interleavedWith: labels.filter { $0 != variant.label })
        }
        progress.finish("done, \(processes) process rounds of \(variants.count) variant\(variants.count == 1 ? "" : "s") "
            + "in \(DurationFormat.string(seconds(monotonicNanoseconds() &- start)))")
        return BenchmarkTable(title: name, results: results)
    }

    /// One variant's results from its processes as one result: every run, each process's runs
    /// kept apart, the median process's init and first run, the largest peak memory.
    static func merged(_ processes: [BenchmarkResult], interleavedWith: [String]) -> BenchmarkResult {
        let first = processes[0]
        func median(_ values: [Double]) -> Double { LatencyStatistics.percentile(50, ofSorted: values.sorted()) }
        let inits = processes.compactMap(\.initSeconds)
        let cpu = processes.allSatisfy { $0.cpuSamples != nil } ? processes.flatMap { $0.cpuSamples ?? [] } : nil
        var result = BenchmarkResult(
            name: first.name, options: first.options, initSeconds: inits.isEmpty ? nil : median(inits),
            firstRunSeconds: median(processes.map(\.firstRunSeconds)),
            warmupRuns: processes.reduce(0) { $0 + $1.warmupRuns }, warmupSeconds: processes.reduce(0) { $0 + $1.warmupSeconds },
            samples: processes.flatMap(\.samples), measuredSeconds: processes.reduce(0) { $0 + $1.measuredSeconds },
            stoppedAtTimeLimit: processes.contains { $0.stoppedAtTimeLimit },
            peakResidentBytes: processes.map(\.peakResidentBytes).max() ?? 0,
            contention: processes.first { $0.isContended }?.contention ?? first.contention,
            interleavedWith: interleavedWith.isEmpty ? nil : interleavedWith, cpuSamples: cpu, energy: first.energy)
        result.processSamples = processes.map(\.samples)
        result.runs = processes.reduce(0) { $0 + $1.runCount }
        result.runsPerSample = processes.map { $0.runsPerSample ?? 1 }.max()
        return result
    }
}
