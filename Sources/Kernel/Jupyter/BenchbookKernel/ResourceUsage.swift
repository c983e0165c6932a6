import Foundation
import JupyterWire
import SystemSupport

/// What the kernel costs, for `usage_request` (jupyter-resource-usage's kernel panel).
///
/// ipykernel (6.10 and later) answers with its own process and its children; for Benchbook
/// the notebook's cost is spread over several processes, all descendants of the kernel:
/// the cell host and its snapshots, the cell compiler, the cell parser, SourceKit-LSP, and
/// short-lived linkers. The reply sums ipykernel's fields over all of them:
/// - `kernel_memory`: the proportional set sizes (PSS, as ipykernel reads with psutil), so
///   pages a snapshot shares with the host count once;
/// - `kernel_cpu`: CPU used since the previous request (the first time: since the kernel
///   started), in percent of one CPU, like the sum of psutil's per-process `cpu_percent()`.
///   A process that ended in between still counts: its time is in its parent's count of
///   waited-for children, and the kernel (a subreaper) waits for every descendant whose
///   parent has gone.
///
/// Thread rules: used only on the control thread.
final class ResourceUsage {
    private var lastCPUSeconds: Double
    private var lastTime: ContinuousClock.Instant
    private var lastSystemCPU: SystemCPUTimes?
    private let root: Int32

    /// Starts measuring from now.
    /// - Parameter root: the process whose tree is measured (the kernel).
    init(root: Int32 = CurrentProcess.id) {
        self.root = root
        lastTime = .now
        lastCPUSeconds = Self.sample(root).reduce(0) { $0 + $1.cpuSeconds + $1.waitedChildrenCPUSeconds }
        lastSystemCPU = SystemCPUTimes.read()
    }

    /// The content of a `usage_reply`: ipykernel's fields (`hostname`, `pid`, `kernel_cpu`,
    /// `kernel_memory`, `host_cpu_percent`, `cpu_count`, `host_virtual_memory`), and
    /// `benchbook_processes`, the processes counted (pid, name, whether it has ended and
    /// waits to be reaped, PSS bytes, CPU seconds).
    func reply() -> [String: JSONValue] {
        let processes = Self.sample(root)
        let now = ContinuousClock.Instant.now
        let cpuSeconds = processes.reduce(0) { $0 + $1.cpuSeconds + $1.waitedChildrenCPUSeconds }
        let elapsed = Self.seconds(now - lastTime)
        let cpuPercent = elapsed > 0 ? max(0, cpuSeconds - lastCPUSeconds) / elapsed * 100 : 0
        lastCPUSeconds = cpuSeconds
        lastTime = now

        var content: [String: JSONValue] = [
            "hostname": .string(Self.hostName),
            "pid": .number(Double(root)),
            "kernel_cpu": .number((cpuPercent * 10).rounded() / 10),
            "kernel_memory": .number(Double(processes.reduce(0) { $0 + $1.proportionalSetSize })),
            "cpu_count": .number(Double(SystemCPUTimes.logicalCount)),
            "benchbook_processes": .array(processes.map { process in
                ["pid": .number(Double(process.pid)), "name": .string(process.name), "ended": .bool(process.hasEnded),
                 "memory": .number(Double(process.proportionalSetSize)), "cpu_seconds": .number(process.cpuSeconds)]
            }),
        ]
        if let system = SystemCPUTimes.read() {
            if let lastSystemCPU { content["host_cpu_percent"] = .number(system.busyPercent(since: lastSystemCPU)) }
            lastSystemCPU = system
        }
        if let memory = SystemMemory.read() {
            var fields = memory.bytes.mapValues { JSONValue.number(Double($0)) }
            fields["percent"] = .number(memory.percent)
            content["host_virtual_memory"] = .object(fields)
        }
        return content
    }

    /// The statistics of every process in the tree that can still be read.
    private static func sample(_ root: Int32) -> [ProcessStatistics] {
        ProcessStatistics.tree(from: root).compactMap(ProcessStatistics.read)
    }

    /// The host name as `gethostname` gives it (Python's `socket.gethostname()`).
    private static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
