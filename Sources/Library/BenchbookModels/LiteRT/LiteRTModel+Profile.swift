internal import CLiteRT
import BenchbookBenchmark
import BenchbookTensor

/// A compilation of the model with LiteRT's profiler on, and its buffers. Owns the compiled
/// model and destroys it in `deinit`.
final class ProfilingCompilation {
    let compiled: LiteRtCompiledModel
    let profiler: LiteRtProfiler
    let threads: Int
    var buffers: LiteRTModel.BufferSet?

    init(compiled: LiteRtCompiledModel, profiler: LiteRtProfiler, threads: Int) {
        self.compiled = compiled
        self.profiler = profiler
        self.threads = threads
    }

    deinit {
        buffers = nil
        _ = try? RuntimeLogs.quietly { [compiled] in bbl_destroy_compiled_model(compiled) }
    }
}

extension LiteRTModel {
    /// The profiler: LiteRT's own, the per-operator timings `benchmark_model --enable_op_profiling` shows.
    static let profilerName = "LiteRT profiler (XNNPACK operators, TFLite kernels and the runtime's own steps)"

    func profile(_ inputs: [Tensor], runs: Int, title: String) throws(ModelError) -> OperatorProfile {
        let compilation = try profilingCompilation()
        let shapes = inputs.map(\.shape)
        if compilation.buffers?.inputShapes != shapes {
            compilation.buffers = nil
            compilation.buffers = try makeBuffers(for: shapes, on: compilation.compiled)
        }
        let set = compilation.buffers!
        for (tensor, memory) in zip(inputs, set.inputMemory) { memory.copy(from: tensor) }
        // Warm-up: a fresh compilation's first runs allocate and pack weights.
        for _ in 0..<2 { try invoke(set, on: compilation.compiled) }
        var runSeconds: [Double] = []
        var events: [[LiteRTEvent]] = []
        for _ in 0..<runs {
            _ = bbl_reset_profiler(compilation.profiler)
            _ = bbl_start_profiler(compilation.profiler)
            let start = ContinuousClock.now
            try invoke(set, on: compilation.compiled)
            let elapsed = ContinuousClock.now - start
            _ = bbl_stop_profiler(compilation.profiler)
            runSeconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            events.append(try readEvents(compilation.profiler))
        }
        return LiteRTEvent.profile(events, runSeconds: runSeconds, title: title, threads: threadCount)
    }

    /// The profiling compilation for the current thread count, made on first use.
    private func profilingCompilation() throws(ModelError) -> ProfilingCompilation {
        if let profiling, profiling.threads == threadCount { return profiling }
        profiling = nil
        let (compiled, _) = try RuntimeLogs.quietly { () throws(ModelError) in
            try Self.compile(environment, model, threads: threadCount, path: path, profiling: true)
        }
        var profiler: LiteRtProfiler?
        guard bbl_compiled_model_get_profiler(compiled, &profiler) == 0, let profiler else {
            _ = try? RuntimeLogs.quietly { bbl_destroy_compiled_model(compiled) }
            throw .unsupported("LiteRT compiled \(path) without a profiler; this LiteRT cannot profile it.")
        }
        let compilation = ProfilingCompilation(compiled: compiled, profiler: profiler, threads: threadCount)
        profiling = compilation
        return compilation
    }

    private func readEvents(_ profiler: LiteRtProfiler) throws(ModelError) -> [LiteRTEvent] {
        var count: Int32 = 0
        try Self.check(bbl_get_num_profiler_events(profiler, &count), path) { .runFailed(path: path, reason: "LiteRT profiler: \($0)") }
        guard count > 0 else { return [] }
        var raw = [LiteRtProfiledEventData](repeating: LiteRtProfiledEventData(), count: Int(count))
        try Self.check(bbl_get_profiler_events(profiler, count, &raw), path) { .runFailed(path: path, reason: "LiteRT profiler: \($0)") }
        return raw.map { event in
            let tag = event.tag.map { String(cString: $0) } ?? ""
            return LiteRTEvent(tag: event.event_type == LiteRTEvent.delegateOperator ? LiteRTEvent.xnnpackOperatorName(tag) : tag,
                               type: event.event_type, seconds: Double(event.elapsed_time_us) * 1e-6)
        }
    }
}

/// One event of LiteRT's profiler, and how a run's events add up to a profile.
struct LiteRTEvent {
    let tag: String
    let type: Int32
    let seconds: Double

    /// LiteRtProfilerEventType values (litert_profiler_event.h).
    static let runtimeStep: Int32 = 1, node: Int32 = 2, delegateInternal: Int32 = 4, delegateOperator: Int32 = 8

    /// A run's events: its runtime steps ("LiteRT::Run[…]", "Invoke"), the graph's nodes that
    /// TFLite kernels ran (type 2) and the operators XNNPACK ran for its delegated part
    /// (type 8, in the operator-wise section). Type 4 events are inside a delegate node
    /// and only counted. The k-th operator of a run is operator "#k".
    static func profile(_ runs: [[LiteRTEvent]], runSeconds: [Double], title: String, threads: Int) -> OperatorProfile {
        struct Key: Hashable { let position: Int; let kind: String; let implementation: String }
        var order: [Key] = []
        var totals: [Key: (calls: Int, seconds: Double)] = [:]
        var steps: [String] = []
        var stepTotals: [String: (calls: Int, seconds: Double)] = [:]
        var allCalls: [String: Int] = [:]
        var perRun: [Double] = []
        func addStep(_ name: String, _ seconds: Double) {
            if stepTotals[name] == nil { steps.append(name) }
            stepTotals[name, default: (0, 0)].calls += 1
            stepTotals[name, default: (0, 0)].seconds += seconds
        }
        for events in runs {
            var position = 0, operatorSeconds = 0.0, invokeSeconds = 0.0
            for event in events {
                switch event.type {
                case node, delegateOperator:
                    position += 1
                    operatorSeconds += event.seconds
                    allCalls[event.tag, default: 0] += 1
                    let key = Key(position: position, kind: event.tag, implementation: event.type == node ? "TFLite kernel" : "XNNPACK")
                    if totals[key] == nil { order.append(key) }
                    totals[key, default: (0, 0)].calls += 1
                    totals[key, default: (0, 0)].seconds += event.seconds
                case delegateInternal:
                    allCalls[event.tag, default: 0] += 1
                case runtimeStep where event.tag == "Invoke":
                    invokeSeconds += event.seconds
                case runtimeStep:
                    addStep(event.tag, event.seconds)
                default:
                    continue  // telemetry and instrumentation events carry no time of this run
                }
            }
            addStep("Invoke, between operators", max(0, invokeSeconds - operatorSeconds))
            perRun.append(operatorSeconds)
        }
        let total = perRun.reduce(0, +)
        let runTotal = runSeconds.reduce(0, +)
        var operators = order.map { key -> OperatorProfile.Operator in
            let figures = totals[key]!
            return OperatorProfile.Operator(kind: key.kind, name: "#\(key.position)", implementation: key.implementation,
                                            calls: figures.calls, totalSeconds: figures.seconds,
                                            share: total > 0 ? figures.seconds / total : 0)
        }
        operators += steps.map { name in
            let figures = stepTotals[name]!
            return OperatorProfile.Operator(kind: name, name: "runtime", implementation: nil, calls: figures.calls,
                                            totalSeconds: figures.seconds, share: runTotal > 0 ? figures.seconds / runTotal : 0,
                                            isRuntimeStep: true)
        }
        return OperatorProfile(title: title, runtime: LiteRTModel.profilerName, threads: threads, operators: operators,
                               runSeconds: runSeconds, operatorSecondsPerRun: perRun, allCalls: allCalls)
    }
}
