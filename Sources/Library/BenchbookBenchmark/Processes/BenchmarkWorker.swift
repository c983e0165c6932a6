import BenchbookRuntime
import BenchbookSettings
import Foundation
import SystemSupport

/// The `benchbook-bench-worker` executable, which measures one ``ModelVariant`` in a fresh
/// process started with `posix_spawn` (never forked from the kernel or the cell host, so it
/// inherits no thread pools, caches or heap from them) and sends the result back on
/// descriptor 3, leaving its standard output and error to the runtimes' own messages.
public struct BenchmarkWorker: Sendable {
    /// The environment variable that names the worker executable (when set, the only place
    /// looked at), read as ``LibrarySettings/benchWorker``.
    public static let environmentVariable = "BENCHBOOK_BENCH_WORKER"
    /// The executable's file name.
    public static let executableName = "benchbook-bench-worker"

    /// The executable's absolute path.
    public var path: String

    /// A worker at a given path.
    /// - Parameter path: the executable.
    public init(path: String) { self.path = path }

    /// Finds the worker: `BENCHBOOK_BENCH_WORKER` when set; otherwise beside this process's
    /// executable (the cell host in `.build/release`), then in the release and debug builds of
    /// the checkout this library was built from.
    /// - Parameter settings: the library's settings (this process's by default).
    /// - Throws: ``BenchmarkError/workerMissing(searched:)`` naming every place looked at.
    public static func located(settings: LibrarySettings = .current) throws -> BenchmarkWorker {
        var searched: [String] = []
        func usable(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
        if let explicit = settings.benchWorker, !explicit.isEmpty {
            searched.append("\(explicit) (\(environmentVariable))")
            guard usable(explicit) else { throw BenchmarkError.workerMissing(searched: searched) }
            return BenchmarkWorker(path: explicit)
        }
        var candidates: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(executableName).path)
        }
        // The checkout this file was compiled in (Sources/Library/BenchbookBenchmark/Processes/ -> root).
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { root.deleteLastPathComponent() }
        candidates += ["release", "debug"].map { root.appendingPathComponent(".build/\($0)/\(executableName)").path }
        for candidate in candidates where !searched.contains(candidate) {
            searched.append(candidate)
            if usable(candidate) { return BenchmarkWorker(path: candidate) }
        }
        throw BenchmarkError.workerMissing(searched: searched)
    }

    /// Measures `variant` in a new worker process and waits for it.
    /// - Parameters:
    ///   - variant: what to measure.
    ///   - options: warm-up and run rules.
    /// - Returns: the worker's result.
    /// - Throws: `InterruptedError` when the kernel is interrupted (the worker is killed),
    ///   ``BenchmarkError/workerFailed(variant:reason:)`` when it ends without a result.
    public func measure(_ variant: ModelVariant, options: BenchmarkOptions) throws -> BenchmarkResult {
        let request = try WorkerRequest(variant: variant, options: options).encoded()
        let report: ChildProcess.Report
        do {
            report = try ChildProcess.runReporting(
                ChildProcess.Configuration(executable: path, arguments: [request], newProcessGroup: true),
                shouldStop: { Interrupt.isRequested })
        } catch {
            throw BenchmarkError.workerFailed(variant: variant.label, reason: "it could not be started (\(error))")
        }
        if report.stopped { try Interrupt.check("The benchmark of \"\(variant.label)\" across processes") }
        let output = report.outputText.split(separator: "\n").suffix(3).joined(separator: " / ")
        guard !report.report.isEmpty else {
            throw BenchmarkError.workerFailed(variant: variant.label,
                reason: "it ended with \(report.status) and sent no report" + (output.isEmpty ? "" : "; its last output: \(output)"))
        }
        switch try WorkerReport(decoding: report.report) {
        case .measured(let result): return result
        case .failed(let reason): throw BenchmarkError.workerFailed(variant: variant.label, reason: reason)
        }
    }
}
