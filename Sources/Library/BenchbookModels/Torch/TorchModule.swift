internal import CTorch
import BenchbookTensor
import Foundation

/// Owns one libtorch module (TorchScript or PyTorch Lite) through the shim's C interface
/// (CTorch, which opens libBenchbookTorch.so on first use). Every call into it is in this
/// file and RuntimeLogs.
final class TorchModule: ModelRuntime {
    let handle: OpaquePointer
    let path: String
    let inputs: [TensorDescription]
    let outputs: [TensorDescription]
    let metadata: ModelMetadata?

    /// Loads the file, first in a child process when `checkInChild` is set.
    /// - Throws: ``ModelError/corruptModel(path:format:reason:)`` with libtorch's message.
    init(path: String, format: ModelFormat, checkInChild: Bool) throws(ModelError) {
        let code = format == .pyTorchLite ? BBT_FORMAT_LITE : BBT_FORMAT_TORCHSCRIPT
        var openError: UnsafeMutablePointer<CChar>?
        if bbt_open(&openError) != 0 {
            let reason = Self.take(openError) ?? "libBenchbookTorch.so could not be opened"
            throw .runtimeLibraryMissing(runtime: "libtorch (PyTorch)", searched: [reason.components(separatedBy: ": ").first ?? reason],
                                         reason: reason)
        }
        RuntimeLogs.prepareTorch()
        if checkInChild, let reason = ModelFileCheck.refusal({ bbt_check_start(path, code, $0, &$1) }) {
            throw .corruptModel(path: path, format: format, reason: reason)
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let handle = bbt_load(path, code, &error) else {
            throw .corruptModel(path: path, format: format, reason: Self.take(error) ?? "libtorch could not load it")
        }
        self.handle = handle
        self.path = path
        let metadata = ModelMetadata(json: String(cString: bbt_metadata(handle)))
        self.metadata = metadata
        var schemaInputs: [TensorDescription] = []
        let count = bbt_input_count(handle)
        for index in 0..<max(count, 0) {
            let name = bbt_input_name(handle, index).map { String(cString: $0) }
            schemaInputs.append(TensorDescription(name: name, shape: nil, elementType: nil))
        }
        inputs = metadata.map(\.inputs).flatMap { $0.isEmpty ? nil : $0 } ?? schemaInputs
        outputs = metadata?.outputs ?? []
    }

    deinit { bbt_module_free(handle) }

    /// The module's own thread count when it was given one, else the process-wide count.
    var threadCount: Int {
        let own = Int(bbt_module_threads(handle))
        return own > 0 ? own : Int(bbt_threads())
    }

    var operators: [String]? {
        String(cString: bbt_operators(handle)).split(separator: ",").map(String.init)
    }

    var threadingNote: String? {
        bbt_uses_pthreadpool(handle) != 0
            ? "XNNPACK/QNNPACK thread pool; ATen operators on 1 OpenMP thread"
            : "OpenMP (ATen operators)"
    }

    func setThreadCount(_ count: Int) throws(ModelError) {
        var error: UnsafeMutablePointer<CChar>?
        if bbt_module_set_threads(handle, Int32(count), &error) != 0 {
            throw .unsupported("libtorch refused \(count) threads: \(Self.take(error) ?? "unknown reason")")
        }
    }

    func run(_ inputs: [Tensor]) throws(ModelError) -> [Tensor] {
        let result: Result<[Tensor], ModelError> = TensorViews.with(inputs) { views in
            var error: UnsafeMutablePointer<CChar>?
            guard let outputs = bbt_forward(handle, views.baseAddress, Int32(views.count), &error) else {
                return .failure(.runFailed(path: path, reason: Self.take(error) ?? "libtorch failed"))
            }
            defer { bbt_outputs_free(outputs) }
            return .success((0..<bbt_outputs_count(outputs)).map { Self.copy(outputs, $0) })
        }
        return try result.get()
    }

    func timeOwnLoop(_ inputs: [Tensor], iterations: Int) throws(ModelError) -> [Double]? {
        let result: Result<[Double], ModelError> = TensorViews.with(inputs) { views in
            var nanoseconds = [Int64](repeating: 0, count: iterations)
            var error: UnsafeMutablePointer<CChar>?
            let status = bbt_time_forward(handle, views.baseAddress, Int32(views.count), Int32(iterations),
                                          &nanoseconds, &error)
            if status != 0 { return .failure(.runFailed(path: path, reason: Self.take(error) ?? "libtorch failed")) }
            return .success(nanoseconds.map { Double($0) / 1e9 })
        }
        return try result.get()
    }

    // MARK: Process-wide settings

    static var quantizedEngine: String { String(cString: bbt_quantized_engine()) }

    static var supportedQuantizedEngines: [String] {
        guard let text = bbt_supported_quantized_engines() else { return [] }
        defer { bbt_free_string(text) }
        return String(cString: text).split(separator: ",").map(String.init)
    }

    static func setQuantizedEngine(_ name: String) throws(ModelError) {
        let supported = supportedQuantizedEngines
        guard supported.contains(name) else {
            throw .unsupported("libtorch here has no quantised engine '\(name)'; choose one of "
                + supported.joined(separator: ", ") + ".")
        }
        var error: UnsafeMutablePointer<CChar>?
        if bbt_set_quantized_engine(name, &error) != 0 {
            throw .unsupported("libtorch could not select '\(name)': \(take(error) ?? "unknown reason")")
        }
    }

    // MARK: Conversions

    /// Returns a message from CTorchShim and frees it.
    static func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        defer { bbt_free_string(text) }
        return String(cString: text)
    }

    private static func copy(_ outputs: OpaquePointer, _ index: Int32) -> Tensor {
        let rank = bbt_output_rank(outputs, index)
        let shape = (0..<rank).map { Int(bbt_output_dimension(outputs, index, $0)) }
        let count = shape.reduce(1, *)
        let data = bbt_output_data(outputs, index)!
        func elements<T>(_: T.Type) -> [T] {
            Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: T.self), count: count))
        }
        let storage: Tensor.Storage
        switch bbt_output_element_type(outputs, index) {
        case BBT_UINT8: storage = .uint8(elements(UInt8.self))
        case BBT_INT8: storage = .int8(elements(Int8.self))
        case BBT_INT32: storage = .int32(elements(Int32.self))
        case BBT_INT64: storage = .int64(elements(Int64.self))
        default: storage = .float32(elements(Float.self))
        }
        // The count matches the shape by construction.
        return try! Tensor(shape: shape, storage: storage)
    }
}

/// Borrows tensors' storage as CTorchShim views for the length of one call.
enum TensorViews {
    static func with<R>(_ tensors: [Tensor], _ body: (UnsafeBufferPointer<bbt_tensor_view>) -> R) -> R {
        var views: [bbt_tensor_view] = []
        var shapes: [[Int64]] = tensors.map { $0.shape.map(Int64.init) }
        return withStorage(tensors, index: 0, views: &views, shapes: &shapes, body)
    }

    private static func withStorage<R>(_ tensors: [Tensor], index: Int, views: inout [bbt_tensor_view],
                                       shapes: inout [[Int64]],
                                       _ body: (UnsafeBufferPointer<bbt_tensor_view>) -> R) -> R {
        if index == tensors.count { return views.withUnsafeBufferPointer(body) }
        let tensor = tensors[index]
        return shapes[index].withUnsafeBufferPointer { shape in
            withBytes(of: tensor.storage) { bytes, type in
                views.append(bbt_tensor_view(data: bytes, element_type: type, shape: shape.baseAddress,
                                             rank: Int32(shape.count)))
                return withStorage(tensors, index: index + 1, views: &views, shapes: &shapes, body)
            }
        }
    }

    private static func withBytes<R>(of storage: Tensor.Storage,
                                     _ body: (UnsafeRawPointer?, bbt_element_type) -> R) -> R {
        switch storage {
        case .float32(let values): values.withUnsafeBytes { body($0.baseAddress, BBT_FLOAT32) }
        case .uint8(let values): values.withUnsafeBytes { body($0.baseAddress, BBT_UINT8) }
        case .int8(let values): values.withUnsafeBytes { body($0.baseAddress, BBT_INT8) }
        case .int32(let values): values.withUnsafeBytes { body($0.baseAddress, BBT_INT32) }
        case .int64(let values): values.withUnsafeBytes { body($0.baseAddress, BBT_INT64) }
        }
    }
}
