internal import CTorch
import BenchbookBenchmark
import BenchbookTensor

extension TorchModule {
    /// The profiler: libtorch's RecordFunction, through a global callback the shim registers
    /// for the profiled runs only (see CTorchShim.h, bbt_profile_forward).
    static let profilerName = "libtorch 1.13, RecordFunction (every operator its dispatcher ran)"

    func profile(_ inputs: [Tensor], runs: Int, title: String) throws(ModelError) -> OperatorProfile {
        // Warm-up: the first run allocates; TorchScript's profiling executor records shapes in
        // the first run and optimises the graph in the second (its passes call operators too).
        for _ in 0..<3 { _ = try run(inputs) }
        let result: Result<OperatorProfile, ModelError> = TensorViews.with(inputs) { views in
            var error: UnsafeMutablePointer<CChar>?
            guard let profile = bbt_profile_forward(handle, views.baseAddress, Int32(views.count), Int32(runs), &error) else {
                return .failure(.runFailed(path: path, reason: Self.take(error) ?? "libtorch could not profile the model"))
            }
            defer { bbt_profile_free(profile) }
            let runSeconds = (0..<bbt_profile_run_count(profile)).map { Double(bbt_profile_run_nanoseconds(profile, $0)) * 1e-9 }
            let count = Int(bbt_profile_event_count(profile))
            let events = count == 0 ? [] : Array(UnsafeBufferPointer(start: bbt_profile_events(profile), count: count)).map {
                TorchCall(name: String(cString: $0.name), run: Int($0.run), parent: Int($0.parent),
                          seconds: Double($0.duration_ns) * 1e-9)
            }
            return .success(TorchCall.profile(events, runSeconds: runSeconds, title: title, threads: threadCount))
        }
        return try result.get()
    }
}

/// One operator call the shim recorded, and how calls add up to a profile.
struct TorchCall {
    let name: String
    let run: Int
    let parent: Int
    let seconds: Double

    /// Nested operators that take at least this share of their caller's time are where its
    /// work went (its implementation).
    static let implementationShare = 0.5

    /// Time spent under one call site, with its nested operators by name, added up over runs.
    final class Subtree {
        var seconds = 0.0
        var children: [String: Subtree] = [:]
    }

    /// Adds up the calls of every run: one entry per top-level call site (the k-th operator
    /// a run calls). Its implementation is the path down the nested operators that took at
    /// least half of their caller's time, added up over all runs first, so that one run
    /// disturbed by another process cannot change the path.
    static func profile(_ calls: [TorchCall], runSeconds: [Double], title: String, threads: Int) -> OperatorProfile {
        var children = [[Int]](repeating: [], count: calls.count)
        var allCalls: [String: Int] = [:]
        for (index, call) in calls.enumerated() {
            allCalls[call.name, default: 0] += 1
            if call.parent >= 0 && call.parent < calls.count { children[call.parent].append(index) }
        }
        /// Adds the calls nested in `index` to `tree`, by name.
        func add(_ index: Int, to tree: Subtree) {
            tree.seconds += calls[index].seconds
            for child in children[index] {
                let name = calls[child].name
                let subtree = tree.children[name] ?? Subtree()
                tree.children[name] = subtree
                add(child, to: subtree)
            }
        }
        struct Key: Hashable { let position: Int; let kind: String }
        var order: [Key] = []
        var totals: [Key: (calls: Int, tree: Subtree)] = [:]
        var perRun = [Double](repeating: 0, count: runSeconds.count)
        var position = [Int](repeating: 0, count: runSeconds.count)
        for (index, call) in calls.enumerated() where call.parent < 0 && call.run < runSeconds.count {
            position[call.run] += 1
            perRun[call.run] += call.seconds
            let key = Key(position: position[call.run], kind: call.name)
            if totals[key] == nil {
                order.append(key)
                totals[key] = (0, Subtree())
            }
            totals[key]!.calls += 1
            add(index, to: totals[key]!.tree)
        }
        /// The nested operators that took at least half of their caller's time, in order.
        func implementation(of kind: String, _ tree: Subtree) -> String? {
            var path: [String] = []
            var (name, current) = (kind, tree)
            while let (childName, child) = current.children.max(by: { $0.value.seconds < $1.value.seconds }),
                  child.seconds >= implementationShare * current.seconds, path.count < 4 {
                if childName != name { path.append(childName) }
                (name, current) = (childName, child)
            }
            return path.isEmpty ? nil : path.joined(separator: " → ")
        }
        let total = perRun.reduce(0, +)
        let operators = order.map { key -> OperatorProfile.Operator in
            let figures = totals[key]!
            return OperatorProfile.Operator(kind: key.kind, name: "#\(key.position)",
                                            implementation: implementation(of: key.kind, figures.tree),
                                            calls: figures.calls, totalSeconds: figures.tree.seconds,
                                            share: total > 0 ? figures.tree.seconds / total : 0)
        }
        return OperatorProfile(title: title, runtime: TorchModule.profilerName, threads: threads, operators: operators,
                               runSeconds: runSeconds, operatorSecondsPerRun: perRun, allCalls: allCalls)
    }
}
