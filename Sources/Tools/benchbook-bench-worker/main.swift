// benchbook-bench-worker: measures one model variant in a fresh process for
// Benchmark.acrossProcesses (BenchbookBenchmark/Processes). Started with posix_spawn by the
// library, never by hand in normal use:
//
//     benchbook-bench-worker '<WorkerRequest as JSON>'
//
// The report (a WorkerReport as JSON) goes to descriptor 3, which the library passes as a
// pipe, so whatever libtorch or LiteRT print on standard output or error never mixes with it.
// Run by hand without descriptor 3, the report goes to standard output. Exit status 0 when a
// report was sent (a measurement or the reason there is none), 2 when it could not be sent.
import BenchbookBenchmark
import BenchbookImage
import BenchbookModels
import BenchbookTensor
import SystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Loads and measures the requested variant.
func measure(_ arguments: [String]) throws -> BenchmarkResult {
    guard arguments.count == 2 else {
        throw BenchmarkError.workerProtocol("expected one argument, the request as JSON; got \(arguments.count - 1)")
    }
    let request = try WorkerRequest(decoding: arguments[1])
    let variant = request.variant
    let photo: Image?
    if case .photo(let path) = variant.input { photo = try Image(contentsOfFile: path) } else { photo = nil }
    // The init time is the model's load plus preparing its input from the photo (about a
    // millisecond, against loads of tens to hundreds).
    return try Benchmark(variant.name, options: request.options).run(
        setUp: { threads -> (Model, Tensor) in
            let model = try Model(contentsOf: variant.modelPath, options: ModelOptions(threads: threads))
            switch variant.input {
            case .photo: return (model, try model.input(from: photo!))
            case .constant(let shape, let value):
                return (model, try Tensor(shape: shape, float32: [Float](repeating: value, count: shape.reduce(1, *))))
            }
        },
        measure: { subject in _ = try subject.0.run(subject.1) })
}

signal(SIGPIPE, SIG_IGN)
let report: WorkerReport
do { report = .measured(try measure(CommandLine.arguments)) } catch { report = .failed("\(error)") }
let channel = fcntl(3, F_GETFD) >= 0 ? FileDescriptor(rawValue: 3) : FileDescriptor(rawValue: 1)
do {
    try channel.write(all: try report.encoded())
    channel.close()
} catch {
    try? FileDescriptor(rawValue: 2).write(all: Array("benchbook-bench-worker: the report could not be sent: \(error)\n".utf8))
    exit(2)
}
