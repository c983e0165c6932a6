/// Where the time of a model's runs went, operator by operator, as the runtime's own
/// profiler reported it (LiteRT's profiler, libtorch's RecordFunction callbacks).
///
/// ``operators`` has one entry per operator of the model (a node of its graph, or one call
/// site of its code), with every profiled run's calls added up; ``grouped(by:)`` adds up
/// operators of the same kind. Besides the operators, a runtime reports the steps of a run
/// that are not operators (LiteRT: binding the buffers, syncing the output): those are
/// entries too, with ``Operator/isRuntimeStep`` set, so the chart shows where every
/// reported microsecond went, but they do not count in ``operatorSecondsPerRun``.
///
/// The check that the profile is complete: the operators' total per run against the same
/// runs' measured time (``coverage``). A profile whose operators cover less than 85 % of the
/// run misses work the runtime does outside them; ``isComplete`` says whether they agree
/// within ``agreementTolerance``.
public struct OperatorProfile: Sendable, Equatable, Codable {
    /// How far the operators' total may be from the measured time for ``isComplete``.
    public static let agreementTolerance = 0.15

    /// One operator of the model, or one step of the runtime, over all profiled runs.
    public struct Operator: Sendable, Equatable, Codable {
        /// What it is: the operator's type, for example "aten::_convolution",
        /// "Convolution (NHWC, F32) IGEMM", "QUANTIZE", or the runtime step's name.
        public var kind: String
        /// Which one: its position in the model, for example "#12" (the 13th operator a run
        /// calls); for grouped entries, how many were added up ("32 operators").
        public var name: String
        /// Where the work went inside it, when the runtime says: for libtorch the nested
        /// operator that took at least half of its time, followed down (for example
        /// "aten::thnn_conv2d → aten::_slow_conv2d_forward"); for LiteRT the delegate that ran it
        /// ("XNNPACK"), or "TFLite kernel".
        public var implementation: String?
        /// Calls over all profiled runs.
        public var calls: Int
        /// Time over all profiled runs, in seconds.
        public var totalSeconds: Double
        /// Its share of the operators' total (runtime steps: of the run time), 0 to 1.
        public var share: Double
        /// A step of the runtime rather than an operator of the model.
        public var isRuntimeStep: Bool

        /// Creates an entry.
        public init(kind: String, name: String, implementation: String?, calls: Int, totalSeconds: Double,
                    share: Double, isRuntimeStep: Bool = false) {
            self.kind = kind
            self.name = name
            self.implementation = implementation
            self.calls = calls
            self.totalSeconds = totalSeconds
            self.share = share
            self.isRuntimeStep = isRuntimeStep
        }

        /// Time per call, in seconds.
        public var meanSeconds: Double { calls > 0 ? totalSeconds / Double(calls) : 0 }

        /// The kind with its implementation, for example "aten::_convolution → aten::thnn_conv2d".
        public var label: String { implementation.map { "\(kind) → \($0)" } ?? kind }
    }

    /// How ``grouped(by:)`` adds operators up.
    public enum Grouping: Sendable, Equatable {
        /// One entry per kind.
        case kind
        /// One entry per kind and implementation (the same operator taking different paths
        /// stays apart: a convolution on MKLDNN and one on the slow path).
        case kindAndImplementation
    }

    /// What was profiled, for example the model file's name.
    public var title: String
    /// The runtime and how it was profiled, for example "libtorch 1.13 (RecordFunction)".
    public var runtime: String
    /// The thread count of the runs.
    public var threads: Int
    /// The operators and runtime steps, the most time first.
    public var operators: [Operator]
    /// Each profiled run's measured time, in seconds (the runtime's run call, with the
    /// profiler on).
    public var runSeconds: [Double]
    /// Each profiled run's operator total (runtime steps left out), in seconds.
    public var operatorSecondsPerRun: [Double]
    /// Every operator the runtime reported at any depth (nested calls included), with its
    /// calls over all runs: what a graph or another profiler can be checked against.
    public var allCalls: [String: Int]
    /// What else the machine did during the profiled runs; `nil` when not measured.
    public var contention: CPUContention?

    /// Creates a profile from its figures (the runtimes do this).
    public init(title: String, runtime: String, threads: Int, operators: [Operator], runSeconds: [Double],
                operatorSecondsPerRun: [Double], allCalls: [String: Int]) {
        self.title = title
        self.runtime = runtime
        self.threads = threads
        self.operators = operators.sorted { $0.totalSeconds > $1.totalSeconds }
        self.runSeconds = runSeconds
        self.operatorSecondsPerRun = operatorSecondsPerRun
        self.allCalls = allCalls
    }

    /// The number of profiled runs.
    public var runs: Int { runSeconds.count }

    /// The median of the runs' measured times, with its 95 % interval.
    public var runMedian: ConfidenceInterval { Bootstrap.percentile(50, of: runSeconds) }

    /// The median of the runs' operator totals.
    public var operatorMedian: Double { LatencyStatistics.percentile(50, of: operatorSecondsPerRun) }

    /// The mean of the runs' measured times: the whole that each operator's time per run
    /// (``Operator/totalSeconds`` over ``runs``) is a part of.
    public var runMean: Double { runSeconds.isEmpty ? 0 : runSeconds.reduce(0, +) / Double(runSeconds.count) }

    /// The mean of the runs' operator totals (the sum of every operator's time per run).
    public var operatorMean: Double {
        operatorSecondsPerRun.isEmpty ? 0 : operatorSecondsPerRun.reduce(0, +) / Double(operatorSecondsPerRun.count)
    }

    /// Operators' total over measured time, run by run, the median over the runs: 1 when the
    /// operators account for the whole run.
    public var coverage: Double {
        let ratios = zip(operatorSecondsPerRun, runSeconds).compactMap { $1 > 0 ? $0 / $1 : nil }
        return ratios.isEmpty ? 0 : LatencyStatistics.percentile(50, of: ratios)
    }

    /// Whether the operators' total is within ``agreementTolerance`` of the measured time.
    public var isComplete: Bool { abs(coverage - 1) <= Self.agreementTolerance }

    /// Operators of the model only (runtime steps left out).
    public var modelOperators: [Operator] { operators.filter { !$0.isRuntimeStep } }

    /// The operators added up by kind (or kind and implementation), the most time first;
    /// shares are recomputed. Runtime steps stay as they are.
    public func grouped(by grouping: Grouping) -> OperatorProfile {
        var order: [String] = []
        var groups: [String: (first: Operator, members: Int, calls: Int, seconds: Double)] = [:]
        for entry in operators {
            let key = entry.isRuntimeStep ? "step\u{1}" + entry.kind + entry.name
                : grouping == .kind ? entry.kind : entry.label
            if let group = groups[key] {
                groups[key] = (group.first, group.members + 1, group.calls + entry.calls, group.seconds + entry.totalSeconds)
            } else {
                order.append(key)
                groups[key] = (entry, 1, entry.calls, entry.totalSeconds)
            }
        }
        let total = operators.filter { !$0.isRuntimeStep }.reduce(0) { $0 + $1.totalSeconds }
        let merged = order.map { key -> Operator in
            let group = groups[key]!
            if group.first.isRuntimeStep { return group.first }
            let implementation = grouping == .kind ? nil : group.first.implementation
            return Operator(kind: group.first.kind, name: group.members == 1 ? group.first.name : "\(group.members) operators",
                            implementation: implementation, calls: group.calls, totalSeconds: group.seconds,
                            share: total > 0 ? group.seconds / total : 0)
        }
        var grouped = OperatorProfile(title: title, runtime: runtime, threads: threads, operators: merged,
                                      runSeconds: runSeconds, operatorSecondsPerRun: operatorSecondsPerRun, allCalls: allCalls)
        grouped.contention = contention
        return grouped
    }

    /// The `count` entries with the most time and, when more remain, one entry adding up the
    /// rest ("other: 14 operators").
    public func top(_ count: Int) -> [Operator] {
        let model = modelOperators
        guard model.count > count else { return model }
        let shown = Array(model.prefix(max(count - 1, 0)))
        let rest = model.dropFirst(shown.count)
        let restSeconds = rest.reduce(0) { $0 + $1.totalSeconds }
        return shown + [Operator(kind: "other", name: "\(rest.count) operators", implementation: nil,
                                 calls: rest.reduce(0) { $0 + $1.calls }, totalSeconds: restSeconds,
                                 share: rest.reduce(0) { $0 + $1.share })]
    }

    /// Time per run of the operators whose ``Operator/label`` (or kind) is `label`, in seconds.
    public func secondsPerRun(_ label: String) -> Double {
        guard runs > 0 else { return 0 }
        return operators.filter { $0.label == label || $0.kind == label }.reduce(0) { $0 + $1.totalSeconds } / Double(runs)
    }
}
