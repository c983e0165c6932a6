import BenchbookBenchmark
import BenchbookTensor
import Foundation

extension Model {
    /// Runs the model with its runtime's profiler on and reports where the time went,
    /// operator by operator: `benchmark_model --enable_op_profiling` for every format.
    ///
    /// TensorFlow Lite: LiteRT's profiler (a second compilation of the model with profiling on,
    /// kept for later calls) reports each operator XNNPACK ran, each node a TFLite kernel ran,
    /// and the runtime's own steps. TorchScript and PyTorch Lite: a RecordFunction callback in
    /// libtorch records every operator its dispatcher runs, with the nested operators each
    /// called, so a convolution shows which kernel it ended up in. ExecuTorch: the runtime's
    /// event tracer (an ETDump generator on a second copy of the method) reports each
    /// instruction, and the XNNPACK delegate each operator it ran inside a delegated block;
    /// delegated operators have the implementation "XNNPACK, delegated block N", the others
    /// "ExecuTorch kernel, not delegated". After warm-up runs (three
    /// for libtorch, whose TorchScript executor optimises the graph in its second run; two for
    /// LiteRT's fresh compilation and for ExecuTorch), `runs` runs are profiled and timed; the profile's
    /// ``OperatorProfile/coverage`` compares the operators' total with those runs' median.
    ///
    /// ```swift
    /// let model = try Model(contentsOf: "models/fashion_cnn.ptl")
    /// let input = try Image(contentsOfFile: "data/sample_ankle_boot.png").tensor()
    /// let profile = try model.profile(input, runs: 10)
    /// profile.grouped(by: .kind)          // time per kind of operator
    /// ```
    /// - Parameters:
    ///   - input: the input tensor.
    ///   - runs: profiled runs, 1 or more.
    /// - Returns: the operators and runtime steps with their calls, times and shares.
    /// - Throws: ``ModelError`` when the input does not fit, the runtime fails, or `runs` is below 1.
    public func profile(_ input: Tensor, runs: Int = 20) throws(ModelError) -> OperatorProfile {
        try profile([input], runs: runs)
    }

    /// Profiles a model with several inputs (see ``profile(_:runs:)-(Tensor,_)``).
    /// - Parameters:
    ///   - inputs: one tensor per model input, in order.
    ///   - runs: profiled runs, 1 or more.
    /// - Returns: the operators and runtime steps with their calls, times and shares.
    /// - Throws: ``ModelError`` as ``profile(_:runs:)-(Tensor,_)``.
    public func profile(_ inputs: [Tensor], runs: Int = 20) throws(ModelError) -> OperatorProfile {
        guard runs >= 1 else { throw .unsupported("A profile needs at least 1 run, not \(runs).") }
        try InputCheck.check(inputs, against: runtime.inputs, path: path)
        let title = (path as NSString).lastPathComponent
        var (profile, contention) = try CPUContention.measure(threads: threads) { () throws(ModelError) in
            try runtime.profile(inputs, runs: runs, title: title)
        }
        profile.contention = contention
        return profile
    }
}

extension Model {
    /// The ETDump the last ``profile(_:runs:)-(Tensor,_)`` of an ExecuTorch program produced:
    /// ExecuTorch's own profiling file, which its Inspector reads
    /// (`executorch.devtools.Inspector(etdump_path: ...)`). `nil` for other formats, and before a profile.
    public var lastETDump: Data? {
        guard let program = runtime as? ExecuTorchProgram, !program.lastETDump.isEmpty else { return nil }
        return program.lastETDump
    }
}
