internal import CExecuTorch
import BenchbookTensor
import Foundation

/// Owns one ExecuTorch program (`.pte`) loaded by the runtime of the PyPI wheel `executorch`
/// through the shim's C interface (CExecuTorch, which opens libBenchbookExecuTorch.so on first
/// use): the file memory-mapped, its `forward` method loaded with XNNPACK-delegated blocks and
/// the optimized, portable and quantized kernels for the rest. Every call into the program API
/// is in this file and ExecuTorchProgram+Profile.swift.
final class ExecuTorchProgram: ModelRuntime {
    /// The runtime's name and version (the wheel's).
    static let runtimeName = "ExecuTorch runtime 1.5.1 (XNNPACK)"

    let handle: OpaquePointer
    let path: String
    let inputs: [TensorDescription]
    let outputs: [TensorDescription]
    let metadata: ModelMetadata?
    let operators: [String]?
    /// The program's method names (`forward`, and `benchbook_json` in the course's files).
    let methodNames: [String]
    /// The ETDump of the last profile (empty before one).
    var lastETDump = Data()

    /// Loads the file, first in a child process when `checkInChild` is set.
    /// - Parameters:
    ///   - threads: the thread count, or `nil` for the runtime's default (one per performant core).
    /// - Throws: ``ModelError/runtimeLibraryMissing(runtime:searched:reason:)`` when the runtime
    ///   cannot be opened; ``ModelError/corruptModel(path:format:reason:)`` for a damaged or
    ///   foreign file; ``ModelError/runtimeLacks(path:format:missing:)`` for a program that needs
    ///   a backend or kernel this runtime does not link.
    init(path: String, threads: Int?, checkInChild: Bool) throws(ModelError) {
        try Self.open()
        if checkInChild, let refusal = ModelFileCheck.check({ bbe_check_start(path, Int32(threads ?? 0), $0, &$1) }) {
            throw Self.loadError(path: path, reason: refusal.text, status: refusal.exitStatus)
        }
        var status = BBE_LOAD_OK
        var error: UnsafeMutablePointer<CChar>?
        guard let handle = bbe_load(path, Int32(threads ?? 0), &status, &error) else {
            throw Self.loadError(path: path, reason: Self.take(error) ?? "the runtime could not load it", status: Int(status.rawValue))
        }
        self.handle = handle
        self.path = path
        let metadata = ModelMetadata(json: String(cString: bbe_metadata(handle)))
        self.metadata = metadata
        inputs = Self.describe(handle, isOutput: false, recorded: metadata?.inputs ?? [])
        outputs = Self.describe(handle, isOutput: true, recorded: metadata?.outputs ?? [])
        operators = String(cString: bbe_operators(handle)).split(separator: ",").map(String.init)
        methodNames = String(cString: bbe_method_names(handle)).split(separator: ",").map(String.init)
    }

    deinit { bbe_program_free(handle) }

    var threadCount: Int { Int(bbe_threads(handle)) }

    var threadingNote: String? { "ExecuTorch thread pool: XNNPACK blocks and the optimized kernels' loops" }

    /// How many times `forward` was loaded: 1, plus one for each thread-pool change it met.
    var methodLoads: Int { Int(bbe_method_loads(handle)) }

    func setThreadCount(_ count: Int) throws(ModelError) {
        var error: UnsafeMutablePointer<CChar>?
        if bbe_set_threads(handle, Int32(count), &error) != 0 {
            throw .unsupported("ExecuTorch refused \(count) threads: \(Self.take(error) ?? "unknown reason")")
        }
    }

    func run(_ inputs: [Tensor]) throws(ModelError) -> [Tensor] {
        let result: Result<[Tensor], ModelError> = ExecuTorchViews.with(inputs) { views in
            var error: UnsafeMutablePointer<CChar>?
            guard let outputs = bbe_forward(handle, views.baseAddress, Int32(views.count), &error) else {
                return .failure(.runFailed(path: path, reason: Self.take(error) ?? "ExecuTorch failed"))
            }
            defer { bbe_outputs_free(outputs) }
            return .success((0..<bbe_outputs_count(outputs)).map { Self.copy(outputs, $0) })
        }
        return try result.get()
    }

    func timeOwnLoop(_ inputs: [Tensor], iterations: Int) throws(ModelError) -> [Double]? {
        let result: Result<[Double], ModelError> = ExecuTorchViews.with(inputs) { views in
            var nanoseconds = [Int64](repeating: 0, count: iterations)
            var error: UnsafeMutablePointer<CChar>?
            if bbe_time_forward(handle, views.baseAddress, Int32(views.count), Int32(iterations), &nanoseconds, &error) != 0 {
                return .failure(.runFailed(path: path, reason: Self.take(error) ?? "ExecuTorch failed"))
            }
            return .success(nanoseconds.map { Double($0) / 1e9 })
        }
        return try result.get()
    }

    // MARK: Loading

    /// Opens libBenchbookExecuTorch.so (and so the wheel's runtime) once.
    /// - Throws: ``ModelError/runtimeLibraryMissing(runtime:searched:reason:)``.
    static func open() throws(ModelError) {
        var error: UnsafeMutablePointer<CChar>?
        if bbe_open(&error) != 0 {
            let reason = take(error) ?? "libBenchbookExecuTorch.so could not be opened"
            throw .runtimeLibraryMissing(runtime: "ExecuTorch", searched: [reason.components(separatedBy: ": ").first ?? reason],
                                         reason: reason)
        }
    }

    /// The backends registered in this process's runtime ("XnnpackBackend").
    static var registeredBackends: [String] {
        guard (try? open()) != nil, let text = bbe_registered_backends() else { return [] }
        defer { bbe_free_string(text) }
        return String(cString: text).split(separator: ",").map(String.init)
    }

    /// The error for a load the shim (or the check child, by its exit status) refused.
    static func loadError(path: String, reason: String, status: Int?) -> ModelError {
        switch status.map(UInt32.init) {
        case BBE_LOAD_MISSING_BACKEND.rawValue?, BBE_LOAD_MISSING_KERNEL.rawValue?:
            return .runtimeLacks(path: path, format: .execuTorch, missing: reason)
        case BBE_LOAD_UNREADABLE.rawValue?:
            return .unreadableFile(path: path, reason: reason)
        default:
            return .corruptModel(path: path, format: .execuTorch, reason: reason)
        }
    }

    /// The program's inputs or outputs as the runtime describes them, with the names and
    /// layouts the file's metadata records (its shapes and types are the runtime's).
    private static func describe(_ handle: OpaquePointer, isOutput: Bool, recorded: [TensorDescription]) -> [TensorDescription] {
        let count = isOutput ? bbe_output_count(handle) : bbe_input_count(handle)
        return (0..<count).map { index in
            let which: Int32 = isOutput ? 1 : 0
            let rank = bbe_tensor_rank(handle, which, index)
            let shape = (0..<rank).map { Int(bbe_tensor_dimension(handle, which, index, $0)) }
            let known = Int(index) < recorded.count ? recorded[Int(index)] : nil
            return TensorDescription(name: known?.name, shape: shape,
                                     elementType: elementType(bbe_tensor_element_type(handle, which, index)),
                                     layout: known?.layout ?? (rank == 4 ? .nchw : nil))
        }
    }

    // MARK: Conversions

    /// Returns a message from the shim and frees it.
    static func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        defer { bbe_free_string(text) }
        return String(cString: text)
    }

    static func elementType(_ code: bbe_element_type) -> ElementType? {
        switch code {
        case BBE_FLOAT32: .float32
        case BBE_UINT8: .uint8
        case BBE_INT8: .int8
        case BBE_INT32: .int32
        case BBE_INT64: .int64
        default: nil
        }
    }

    private static func copy(_ outputs: OpaquePointer, _ index: Int32) -> Tensor {
        let rank = bbe_output_rank(outputs, index)
        let shape = (0..<rank).map { Int(bbe_output_dimension(outputs, index, $0)) }
        let count = shape.reduce(1, *)
        let data = bbe_output_data(outputs, index)!
        func elements<T>(_: T.Type) -> [T] {
            Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: T.self), count: count))
        }
        let storage: Tensor.Storage
        switch bbe_output_element_type(outputs, index) {
        case BBE_UINT8: storage = .uint8(elements(UInt8.self))
        case BBE_INT8: storage = .int8(elements(Int8.self))
        case BBE_INT32: storage = .int32(elements(Int32.self))
        case BBE_INT64: storage = .int64(elements(Int64.self))
        default: storage = .float32(elements(Float.self))
        }
        // The count matches the shape by construction.
        return try! Tensor(shape: shape, storage: storage)
    }
}

/// Borrows tensors' storage as CExecuTorchShim views for the length of one call.
enum ExecuTorchViews {
    static func with<R>(_ tensors: [Tensor], _ body: (UnsafeBufferPointer<bbe_tensor_view>) -> R) -> R {
        var views: [bbe_tensor_view] = []
        var shapes: [[Int64]] = tensors.map { $0.shape.map(Int64.init) }
        return withStorage(tensors, index: 0, views: &views, shapes: &shapes, body)
    }

    private static func withStorage<R>(_ tensors: [Tensor], index: Int, views: inout [bbe_tensor_view],
                                       shapes: inout [[Int64]], _ body: (UnsafeBufferPointer<bbe_tensor_view>) -> R) -> R {
        if index == tensors.count { return views.withUnsafeBufferPointer(body) }
        return shapes[index].withUnsafeBufferPointer { shape in
            withBytes(of: tensors[index].storage) { bytes, type in
                views.append(bbe_tensor_view(data: bytes, element_type: type, shape: shape.baseAddress, rank: Int32(shape.count)))
                return withStorage(tensors, index: index + 1, views: &views, shapes: &shapes, body)
            }
        }
    }

    private static func withBytes<R>(of storage: Tensor.Storage, _ body: (UnsafeRawPointer?, bbe_element_type) -> R) -> R {
        switch storage {
        case .float32(let values): values.withUnsafeBytes { body($0.baseAddress, BBE_FLOAT32) }
        case .uint8(let values): values.withUnsafeBytes { body($0.baseAddress, BBE_UINT8) }
        case .int8(let values): values.withUnsafeBytes { body($0.baseAddress, BBE_INT8) }
        case .int32(let values): values.withUnsafeBytes { body($0.baseAddress, BBE_INT32) }
        case .int64(let values): values.withUnsafeBytes { body($0.baseAddress, BBE_INT64) }
        }
    }
}
