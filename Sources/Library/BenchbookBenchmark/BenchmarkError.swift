/// Why a benchmark, record or comparison could not be made.
public enum BenchmarkError: Error, CustomStringConvertible, Equatable {
    /// Options that cannot be measured (for example zero runs).
    case invalidOptions(String)
    /// A sweep was given no thread counts or variants.
    case emptySweep
    /// A file (model or record) could not be read.
    case unreadableFile(path: String, reason: String)
    /// A record could not be written.
    case unwritableFile(path: String, reason: String)
    /// A record file is not a Benchbook benchmark record.
    case malformedRecord(path: String, reason: String)
    /// A record has no per-run times, so it cannot be compared.
    case noSamples(name: String)
    /// OpenSSL could not compute a digest.
    case digestFailed(String)
    /// The worker executable for measurements across processes was not found.
    case workerMissing(searched: [String])
    /// A worker process ended without a measurement.
    case workerFailed(variant: String, reason: String)
    /// A worker's request or report could not be read.
    case workerProtocol(String)

    /// What went wrong and what to do next.
    public var description: String {
        switch self {
        case .invalidOptions(let detail):
            return "Benchmark options are invalid: \(detail). Use at least 1 run and 1 inner iteration, and non-negative times."
        case .emptySweep:
            return "The sweep has nothing to measure; pass at least one thread count or variant."
        case .unreadableFile(let path, let reason):
            return "Cannot read \(path) (\(reason)); check the path relative to the notebook's directory."
        case .unwritableFile(let path, let reason):
            return "Cannot write \(path) (\(reason)); check that the directory exists and is writable, or pass another directory."
        case .malformedRecord(let path, let reason):
            return "\(path) is not a Benchbook benchmark record (\(reason)); pass a .json file written by BenchmarkRecord.write(to:)."
        case .noSamples(let name):
            return "The record \"\(name)\" has no per-run times; re-run the benchmark and write a new record."
        case .workerMissing(let searched):
            return "The benchmark worker (benchbook-bench-worker) was not found; looked at "
                + searched.joined(separator: ", ") + ". Build it with `make build` (or `swift build -c release "
                + "--product benchbook-bench-worker`), or set BENCHBOOK_BENCH_WORKER to its path."
        case .workerFailed(let variant, let reason):
            return "The worker process measuring \"\(variant)\" ended without a measurement: \(reason). "
                + "Check the model path and input, or run the variant in the notebook with Benchmark.run to see the error."
        case .workerProtocol(let detail):
            return "The benchmark worker's message could not be read (\(detail)); rebuild the worker and the library "
                + "together (`make build`), or set BENCHBOOK_BENCH_WORKER to the worker of this build."
        case .digestFailed(let detail):
            return "Computing the SHA-256 failed (\(detail)); check that libssl is installed (scripts/apt-packages.txt)."
        }
    }
}
