internal import CExecuTorch
import BenchbookBenchmark
import BenchbookTensor
import Foundation

extension ExecuTorchProgram {
    /// The profiler: the runtime's event tracer hooks, recorded by an ETDump generator.
    static let profilerName = "ExecuTorch 1.5.1, ETDump events (instructions and XNNPACK's operators)"
    /// What a delegated XNNPACK operator ran on.
    static let delegatedImplementation = "XNNPACK, delegated block"
    /// What an operator outside the delegated blocks ran on.
    static let kernelImplementation = "ExecuTorch kernel, not delegated"

    /// Profiles `forward` on a second copy of the method that carries the event tracer (made by
    /// the first profile and kept): two warm-up runs, then `runs` recorded runs.
    func profile(_ inputs: [Tensor], runs: Int, title: String) throws(ModelError) -> OperatorProfile {
        let result: Result<OperatorProfile, ModelError> = ExecuTorchViews.with(inputs) { views in
            var error: UnsafeMutablePointer<CChar>?
            guard let profile = bbe_profile_forward(handle, views.baseAddress, Int32(views.count), 2, Int32(runs), &error) else {
                return .failure(.runFailed(path: path, reason: Self.take(error) ?? "ExecuTorch could not profile the program"))
            }
            defer { bbe_profile_free(profile) }
            lastETDump = Data(bytes: bbe_profile_etdump(profile), count: bbe_profile_etdump_size(profile))
            let runSeconds = (0..<bbe_profile_run_count(profile)).map { Double(bbe_profile_run_nanoseconds(profile, $0)) * 1e-9 }
            let count = Int(bbe_profile_event_count(profile))
            let events = count == 0 ? [] : Array(UnsafeBufferPointer(start: bbe_profile_events(profile), count: count)).map {
                ExecuTorchEvent(kind: String(cString: $0.kind), run: Int($0.run), instruction: Int($0.instruction),
                                position: Int($0.delegate), isDelegateCall: $0.is_delegate_call != 0,
                                seconds: Double($0.duration_ns) * 1e-9)
            }
            return .success(ExecuTorchEvent.profile(events, runSeconds: runSeconds, title: title, threads: threadCount))
        }
        return try result.get()
    }
}

/// One event the shim recorded, and how events add up to a profile.
struct ExecuTorchEvent {
    /// An operator name ("aten::mean.out"), an XNNPACK operator ("Convolution (NHWC, F32) IGEMM #3"),
    /// a backend for a delegate call ("XnnpackBackend"), or "Method::execute".
    let kind: String
    let run: Int
    /// The instruction of `forward` (-1 for the method as a whole).
    let instruction: Int
    /// The operator's position inside its delegated block (-1 for anything else).
    let position: Int
    let isDelegateCall: Bool
    let seconds: Double

    /// Adds the events of every run up into one entry per operator: each XNNPACK operator of
    /// each delegated block, and each instruction that runs an ExecuTorch kernel. The time a
    /// delegated block took beyond its operators, and the method's beyond its instructions, are
    /// runtime steps. A block whose operators the delegate did not report is one operator.
    static func profile(_ events: [ExecuTorchEvent], runSeconds: [Double], title: String, threads: Int) -> OperatorProfile {
        struct Key: Hashable { let instruction: Int, position: Int }
        var order: [Key] = []
        var entries: [Key: (kind: String, name: String, implementation: String?, calls: Int, seconds: Double, step: Bool)] = [:]
        var operatorSeconds = [Double](repeating: 0, count: runSeconds.count)
        var allCalls: [String: Int] = [:]
        func add(_ key: Key, kind: String, name: String, implementation: String?, seconds: Double, step: Bool, run: Int) {
            if entries[key] == nil { order.append(key) }
            let old = entries[key] ?? (kind, name, implementation, 0, 0, step)
            entries[key] = (kind, name, implementation, old.calls + 1, old.seconds + seconds, step)
            if !step, run < operatorSeconds.count { operatorSeconds[run] += seconds }
        }
        // Blocks are numbered in the order a run reaches them.
        var blockNumbers: [Int: Int] = [:]
        for event in events where event.isDelegateCall && blockNumbers[event.instruction] == nil {
            blockNumbers[event.instruction] = blockNumbers.count + 1
        }
        for run in Set(events.map(\.run)).sorted() {
            let inRun = events.filter { $0.run == run }
            var instructionSeconds = 0.0
            for event in inRun where event.instruction >= 0 && event.position < 0 {
                instructionSeconds += event.seconds
                allCalls[event.kind, default: 0] += 1
                if event.isDelegateCall {
                    let inner = inRun.filter { $0.instruction == event.instruction && $0.position >= 0 }
                    let block = blockNumbers[event.instruction] ?? 0
                    if inner.isEmpty {
                        add(Key(instruction: event.instruction, position: -1), kind: "XNNPACK delegated block",
                            name: "block \(block)", implementation: event.kind, seconds: event.seconds, step: false, run: run)
                        continue
                    }
                    for operation in inner {
                        let (kind, number) = split(operation.kind)
                        allCalls[kind, default: 0] += 1
                        add(Key(instruction: event.instruction, position: operation.position), kind: kind,
                            name: "block \(block) " + (number ?? "#\(operation.position + 1)"),
                            implementation: ExecuTorchProgram.delegatedImplementation + " \(block)",
                            seconds: operation.seconds, step: false, run: run)
                    }
                    let outside = max(event.seconds - inner.reduce(0) { $0 + $1.seconds }, 0)
                    add(Key(instruction: event.instruction, position: -2), kind: "XNNPACK block \(block) outside its operators",
                        name: "instruction #\(event.instruction)", implementation: nil, seconds: outside, step: true, run: run)
                } else {
                    add(Key(instruction: event.instruction, position: -1), kind: event.kind, name: "#\(event.instruction)",
                        implementation: ExecuTorchProgram.kernelImplementation, seconds: event.seconds, step: false, run: run)
                }
            }
            if let method = inRun.first(where: { $0.instruction < 0 }) {
                add(Key(instruction: -1, position: -1), kind: "ExecuTorch method outside its instructions", name: "forward",
                    implementation: nil, seconds: max(method.seconds - instructionSeconds, 0), step: true, run: run)
            }
        }
        let total = order.compactMap { entries[$0] }.filter { !$0.step }.reduce(0) { $0 + $1.seconds }
        let runTotal = runSeconds.reduce(0, +)
        let operators = order.compactMap { key -> OperatorProfile.Operator? in
            guard let entry = entries[key] else { return nil }
            let share = entry.step ? (runTotal > 0 ? entry.seconds / runTotal : 0) : (total > 0 ? entry.seconds / total : 0)
            return OperatorProfile.Operator(kind: entry.kind, name: entry.name, implementation: entry.implementation,
                                            calls: entry.calls, totalSeconds: entry.seconds, share: share,
                                            isRuntimeStep: entry.step)
        }
        return OperatorProfile(title: title, runtime: ExecuTorchProgram.profilerName, threads: threads, operators: operators,
                               runSeconds: runSeconds, operatorSecondsPerRun: operatorSeconds, allCalls: allCalls)
    }

    /// "Convolution (NHWC, F32) IGEMM #3" -> ("Convolution (NHWC, F32) IGEMM", "#3").
    static func split(_ name: String) -> (kind: String, number: String?) {
        guard let hash = name.range(of: " #", options: .backwards),
              name[hash.upperBound...].allSatisfy(\.isNumber), hash.upperBound < name.endIndex else { return (name, nil) }
        return (String(name[..<hash.lowerBound]), "#" + name[hash.upperBound...])
    }
}
