internal import CLiteRT
import BenchbookTensor
import Foundation

/// Owns one TensorFlow Lite model compiled by LiteRT for the CPU (XNNPACK), with its
/// environment, options and tensor buffers. Every call into CLiteRT's model API is in this file.
final class LiteRTModel: ModelRuntime {
    /// The payload identifier LiteRT's CPU accelerator looks its options up by; the payload
    /// is TOML text such as `num_threads = 2`.
    static let cpuOptionsIdentifier = "xnnpack"
    private static let cpuAccelerator: LiteRtHwAcceleratorSet = 1

    let path: String
    let environment: LiteRtEnvironment
    let model: LiteRtModel
    private var compiled: LiteRtCompiledModel
    private var buffers: BufferSet?
    /// A second compilation with LiteRT's profiler on, made by the first ``profile`` call and
    /// kept for later ones (profiling stays out of ``run(_:)``'s compilation).
    var profiling: ProfilingCompilation?
    private(set) var threadCount: Int
    let inputs: [TensorDescription]
    let outputs: [TensorDescription]
    let metadata: ModelMetadata?
    var threadingNote: String? { "XNNPACK thread pool" }
    var operators: [String]? { nil }

    /// Opens LiteRT if needed, reads the model's first signature and compiles it. With
    /// `checkInChild`, a forked child first loads and runs the file once, so that a damaged
    /// file that crashes LiteRT becomes an error here.
    /// - Throws: ``ModelError`` when the library is missing or LiteRT rejects the file.
    init(path: String, threads: Int, checkInChild: Bool) throws(ModelError) {
        _ = try LiteRTLibrary.load()
        if checkInChild,
           let reason = ModelFileCheck.refusal({ bbl_check_start(path, Self.cpuOptionsIdentifier, $0, &$1) }) {
            throw .corruptModel(path: path, format: .tensorFlowLite, reason: reason)
        }
        self.path = path
        // LiteRT logs while it creates the environment and compiles: keep those lines quiet.
        let ((environment, model, described, compiled), lines) = try RuntimeLogs.quietly {
            () throws(ModelError) -> (LiteRtEnvironment, LiteRtModel, ([TensorDescription], [TensorDescription]), LiteRtCompiledModel) in
            var environment: LiteRtEnvironment?
            try Self.check(bbl_create_environment(&environment), path) { .runFailed(path: path, reason: $0) }
            var model: LiteRtModel?
            let status = bbl_create_model_from_file(environment, path, &model)
            guard status == 0, let model else {
                bbl_destroy_environment(environment)
                throw .corruptModel(path: path, format: .tensorFlowLite, reason: "LiteRT: " + Self.statusText(status))
            }
            do throws(ModelError) {
                let described = try Self.describe(model, path: path)
                return (environment!, model, described, try Self.compile(environment!, model, threads: threads, path: path))
            } catch {
                bbl_destroy_model(model)
                bbl_destroy_environment(environment)
                throw error
            }
        }
        _ = lines
        self.environment = environment
        self.model = model
        (inputs, outputs) = described
        self.compiled = compiled
        metadata = Self.metadata(model)
        threadCount = threads
    }

    deinit {
        buffers = nil
        profiling = nil
        _ = try? RuntimeLogs.quietly { [compiled, model, environment] in
            bbl_destroy_compiled_model(compiled)
            bbl_destroy_model(model)
            bbl_destroy_environment(environment)
        }
    }

    func setThreadCount(_ count: Int) throws(ModelError) {
        let (replacement, _) = try RuntimeLogs.quietly { () throws(ModelError) in
            try Self.compile(environment, model, threads: count, path: path)
        }
        buffers = nil
        profiling = nil
        _ = try? RuntimeLogs.quietly { [compiled] in bbl_destroy_compiled_model(compiled) }
        compiled = replacement
        threadCount = count
    }

    func run(_ tensors: [Tensor]) throws(ModelError) -> [Tensor] {
        let set = try prepareBuffers(for: tensors)
        for (tensor, memory) in zip(tensors, set.inputMemory) { memory.copy(from: tensor) }
        try invoke(set)
        return zip(set.outputShapes, zip(outputs, set.outputMemory)).map { shape, pair in
            pair.1.tensor(shape: shape, elementType: pair.0.elementType ?? .float32)
        }
    }

    func timeOwnLoop(_ inputs: [Tensor], iterations: Int) throws(ModelError) -> [Double]? { nil }

    // MARK: Buffers

    /// Input and output buffers for one set of input shapes, reused while shapes stay the same.
    final class BufferSet {
        let inputShapes: [[Int]]
        let outputShapes: [[Int]]
        let inputMemory: [AlignedMemory]
        let outputMemory: [AlignedMemory]
        var handles: [LiteRtTensorBuffer?]
        let inputCount: Int

        init(inputShapes: [[Int]], outputShapes: [[Int]], inputMemory: [AlignedMemory],
             outputMemory: [AlignedMemory], handles: [LiteRtTensorBuffer?]) {
            self.inputShapes = inputShapes
            self.outputShapes = outputShapes
            self.inputMemory = inputMemory
            self.outputMemory = outputMemory
            self.handles = handles
            self.inputCount = inputMemory.count
        }

        deinit { for handle in handles { if let handle { bbl_destroy_tensor_buffer(handle) } } }
    }

    private func prepareBuffers(for tensors: [Tensor]) throws(ModelError) -> BufferSet {
        let shapes = tensors.map(\.shape)
        if let buffers, buffers.inputShapes == shapes { return buffers }
        buffers = nil
        let set = try makeBuffers(for: shapes, on: compiled)
        buffers = set
        return set
    }

    /// Input and output buffers for these input shapes, resizing `compiled`'s inputs first
    /// when they differ from the file's.
    func makeBuffers(for shapes: [[Int]], on compiled: LiteRtCompiledModel) throws(ModelError) -> BufferSet {
        let batch = shapes.first?.first ?? 1
        for (index, (shape, description)) in zip(shapes, inputs).enumerated() where description.shape != shape {
            let dimensions = shape.map { Int32($0) }
            try Self.check(bbl_resize_input_tensor(compiled, 0, index, dimensions, dimensions.count), path) {
                .runFailed(path: path, reason: "LiteRT could not resize input \(index) to \(shape): \($0)")
            }
        }
        let outputShapes = outputs.map { ($0.shape ?? []).map { $0 < 0 ? batch : $0 } }
        let inputMemory = zip(shapes, inputs).map { AlignedMemory(shape: $0, elementType: $1.elementType ?? .float32) }
        let outputMemory = zip(outputShapes, outputs).map {
            AlignedMemory(shape: $0, elementType: $1.elementType ?? .float32)
        }
        let set = BufferSet(inputShapes: shapes, outputShapes: outputShapes, inputMemory: inputMemory,
                            outputMemory: outputMemory, handles: [])
        let all = zip(inputMemory + outputMemory, inputs + outputs)
        for (memory, description) in all {
            var type = Self.rankedType(description.elementType ?? .float32, shape: memory.shape)
            var handle: LiteRtTensorBuffer?
            try Self.check(bbl_create_tensor_buffer_from_host_memory(&type, memory.pointer, memory.byteCount, &handle),
                           path) { .runFailed(path: path, reason: "LiteRT could not wrap a tensor buffer: \($0)") }
            set.handles.append(handle)
        }
        return set
    }

    private func invoke(_ set: BufferSet) throws(ModelError) {
        try invoke(set, on: compiled)
    }

    /// Runs `compiled` on the buffers and syncs the outputs into their host memory.
    func invoke(_ set: BufferSet, on compiled: LiteRtCompiledModel) throws(ModelError) {
        var handles = set.handles
        let status = handles.withUnsafeMutableBufferPointer { all in
            bbl_run_compiled_model(compiled, 0, set.inputCount, all.baseAddress, all.count - set.inputCount,
                                   all.baseAddress! + set.inputCount)
        }
        try Self.check(status, path) { .runFailed(path: path, reason: "LiteRT: \($0)") }
        // Host-memory buffers are the caller's memory; locking syncs any pending copy into it.
        for handle in handles[set.inputCount...] {
            var address: UnsafeMutableRawPointer?
            if bbl_lock_tensor_buffer(handle, &address, 0) == 0 { _ = bbl_unlock_tensor_buffer(handle) }
        }
    }

    // MARK: Compilation and description

    /// The file's `benchbook.json` metadata buffer, when it has one.
    private static func metadata(_ model: LiteRtModel) -> ModelMetadata? {
        var data: UnsafeRawPointer?
        var size = 0
        guard bbl_get_model_metadata(model, ModelMetadata.entryName, &data, &size) == 0, let data, size > 0 else {
            return nil
        }
        return ModelMetadata(json: String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self))
    }

    /// Compiles the model for the CPU with `threads` XNNPACK threads; with `profiling`, LiteRT
    /// keeps a profiler for it (runtime option `enable_profiling`).
    static func compile(_ environment: LiteRtEnvironment, _ model: LiteRtModel, threads: Int,
                        path: String, profiling: Bool = false) throws(ModelError) -> LiteRtCompiledModel {
        var options: LiteRtOptions?
        try check(bbl_create_options(&options), path) { .runFailed(path: path, reason: $0) }
        defer { bbl_destroy_options(options) }
        try check(bbl_set_options_hardware_accelerators(options, cpuAccelerator), path) {
            .runFailed(path: path, reason: $0)
        }
        try check(bbl_add_cpu_options(options, cpuOptionsIdentifier, "num_threads = \(threads)\n"), path) {
            .unsupported("LiteRT refused \(threads) thread(s) for \(path): \($0)")
        }
        if profiling {
            try check(bbl_add_runtime_options(options, "enable_profiling = true\n"), path) {
                .unsupported("LiteRT refused to profile \(path): \($0)")
            }
        }
        var compiled: LiteRtCompiledModel?
        let status = bbl_create_compiled_model(environment, model, options, &compiled)
        guard status == 0, let compiled else {
            throw .corruptModel(path: path, format: .tensorFlowLite,
                                reason: "LiteRT could not compile it for the CPU: " + statusText(status))
        }
        return compiled
    }

    private static func describe(_ model: LiteRtModel, path: String) throws(ModelError)
        -> ([TensorDescription], [TensorDescription]) {
        var count: LiteRtParamIndex = 0
        try check(bbl_get_num_model_signatures(model, &count), path) { .corruptModel(path: path, format: .tensorFlowLite, reason: $0) }
        guard count > 0 else {
            throw .corruptModel(path: path, format: .tensorFlowLite, reason: "the model has no signature to run")
        }
        var signature: LiteRtSignature?
        try check(bbl_get_model_signature(model, 0, &signature), path) { .corruptModel(path: path, format: .tensorFlowLite, reason: $0) }
        var inputCount: LiteRtParamIndex = 0, outputCount: LiteRtParamIndex = 0
        _ = bbl_get_num_signature_inputs(signature, &inputCount)
        _ = bbl_get_num_signature_outputs(signature, &outputCount)
        var inputs: [TensorDescription] = [], outputs: [TensorDescription] = []
        for index in 0..<inputCount {
            var name: UnsafePointer<CChar>?, tensor: LiteRtTensor?
            _ = bbl_get_signature_input_name(signature, index, &name)
            try check(bbl_get_signature_input_tensor(signature, index, &tensor), path) {
                .corruptModel(path: path, format: .tensorFlowLite, reason: $0)
            }
            inputs.append(try describe(tensor!, name: name.map { String(cString: $0) }, path: path))
        }
        for index in 0..<outputCount {
            var name: UnsafePointer<CChar>?, tensor: LiteRtTensor?
            _ = bbl_get_signature_output_name(signature, index, &name)
            try check(bbl_get_signature_output_tensor(signature, index, &tensor), path) {
                .corruptModel(path: path, format: .tensorFlowLite, reason: $0)
            }
            outputs.append(try describe(tensor!, name: name.map { String(cString: $0) }, path: path))
        }
        return (inputs, outputs)
    }

    private static func describe(_ tensor: LiteRtTensor, name: String?, path: String) throws(ModelError)
        -> TensorDescription {
        var type = LiteRtRankedTensorType()
        try check(bbl_get_ranked_tensor_type(tensor, &type), path) {
            .corruptModel(path: path, format: .tensorFlowLite, reason: "a tensor has no fixed rank (\($0))")
        }
        let rank = Int(bbl_layout_rank(&type.layout))
        let dimensions = withUnsafeBytes(of: type.layout.dimensions) { Array($0.bindMemory(to: Int32.self)) }
        let shape = dimensions.prefix(rank).map(Int.init)
        guard let elementType = elementType(type.element_type) else {
            throw .unsupported("\(path) uses LiteRT element type \(type.element_type), which Benchbook tensors "
                + "cannot hold (float32, uint8, int8, int32, int64 are supported).")
        }
        var quantization: Quantization?
        var kind: LiteRtQuantizationTypeId = 0
        if bbl_get_quantization_type_id(tensor, &kind) == 0, kind == 1 {
            var perTensor = LiteRtQuantizationPerTensor()
            if bbl_get_per_tensor_quantization(tensor, &perTensor) == 0 {
                quantization = Quantization(scale: perTensor.scale, zeroPoint: Int(perTensor.zero_point))
            }
        }
        return TensorDescription(name: name, shape: shape, elementType: elementType, quantization: quantization,
                                 layout: rank == 4 ? .nhwc : nil)
    }

    private static func rankedType(_ elementType: ElementType, shape: [Int]) -> LiteRtRankedTensorType {
        var type = LiteRtRankedTensorType()
        type.element_type = liteRTCode(elementType)
        bbl_layout_set_rank(&type.layout, UInt32(shape.count))
        withUnsafeMutableBytes(of: &type.layout.dimensions) { raw in
            let dimensions = raw.bindMemory(to: Int32.self)
            for (axis, size) in shape.enumerated() { dimensions[axis] = Int32(size) }
        }
        return type
    }

    static func elementType(_ code: LiteRtElementType) -> ElementType? {
        switch code {
        case 1: .float32
        case 2: .int32
        case 3: .uint8
        case 4: .int64
        case 9: .int8
        default: nil
        }
    }

    static func liteRTCode(_ type: ElementType) -> LiteRtElementType {
        switch type {
        case .float32: 1
        case .int32: 2
        case .uint8: 3
        case .int64: 4
        case .int8: 9
        }
    }

    static func check(_ status: LiteRtStatus, _ path: String,
                              _ error: (String) -> ModelError) throws(ModelError) {
        if status != 0 { throw error(statusText(status)) }
    }

    /// The name of a LiteRtStatus code (the library does not export its own helper).
    static func statusText(_ status: LiteRtStatus) -> String {
        let names: [Int32: String] = [
            1: "invalid argument", 2: "memory allocation failure", 3: "runtime failure",
            4: "missing input tensor", 5: "unsupported", 6: "not found", 7: "timeout expired",
            8: "wrong version", 9: "unknown error", 500: "file I/O error", 501: "invalid FlatBuffer",
            502: "dynamic loading error", 503: "serialization error", 504: "compilation error",
            1000: "index out of bounds", 1001: "invalid IR type", 1002: "invalid graph invariant",
        ]
        return "status \(status) (\(names[status] ?? "unknown"))"
    }
}
