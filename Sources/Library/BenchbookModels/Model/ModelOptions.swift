/// How to load a ``Model``.
public struct ModelOptions: Sendable {
    /// The file format; `nil` decides from the extension, then the contents.
    public var format: ModelFormat?
    /// The number of CPU threads; `nil` keeps the runtime's default (libtorch: all cores,
    /// LiteRT: 1 unless set, ExecuTorch: the size of its thread pool, one thread per performant core).
    public var threads: Int?
    /// The quantised engine for libtorch models: "qnnpack" (the default, the engine phones
    /// use and the course's int8 models were made for) or "onednn"; `nil` keeps the current
    /// one. libtorch has one engine per process. Ignored for TensorFlow Lite and ExecuTorch.
    public var quantizedEngine: String?
    /// Load the file once in a forked child process first (TensorFlow Lite: load, compile and
    /// run once on zeros), so that a damaged file that crashes libtorch or LiteRT becomes an
    /// error instead of ending the notebook's process (ExecuTorch: load and run once on zeros; its
    /// runtime aborts the process on some inconsistencies). Costs one extra load. LiteRT crashes
    /// on some truncated files, so keep this on for files you did not make.
    public var checksInChildProcess: Bool

    /// Creates options.
    /// - Parameters:
    ///   - format: the file format, or `nil` to detect it.
    ///   - threads: the CPU thread count, or `nil` for the default.
    ///   - quantizedEngine: "qnnpack" or "onednn" for libtorch, or `nil` to keep the current one.
    ///   - checksInChildProcess: probe-load libtorch files in a child process first.
    public init(format: ModelFormat? = nil, threads: Int? = nil, quantizedEngine: String? = "qnnpack",
                checksInChildProcess: Bool = true) {
        self.format = format
        self.threads = threads
        self.quantizedEngine = quantizedEngine
        self.checksInChildProcess = checksInChildProcess
    }
}
