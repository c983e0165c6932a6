internal import CExecuTorch
internal import CLiteRT
internal import CTorch
import BenchbookSettings
import Foundation

/// The log lines of the model runtimes (LiteRT, libtorch, ExecuTorch): kept out of the notebook by
/// default, shown on request.
///
/// LiteRT writes `INFO`/`WARNING` lines to standard error every time it creates an
/// environment or compiles a model (it looks for GPU and NPU accelerators this machine does
/// not have); libtorch writes warnings the same way. In a notebook they show up in red, like
/// errors, though nothing is wrong. While ``isEnabled`` is false (the default) Benchbook keeps
/// those lines in ``captured`` instead; set it to true, or start the kernel with the
/// environment variable `BENCHBOOK_RUNTIME_LOGS=1`, to let them through.
///
/// ```swift
/// RuntimeLogs.isEnabled = true                  // LiteRT and libtorch print from here on
/// let model = try Model(contentsOf: "../models/generated/efficientnet_lite0.tflite")
/// RuntimeLogs.isEnabled = false
/// print(RuntimeLogs.captured.count, "lines were kept while quiet")
/// ```
///
/// Thread rules: the switch and the buffer are safe to use from any thread. While LiteRT
/// loads or compiles a model quietly, the process's standard error is redirected for the
/// length of that call, so a line another thread writes to standard error at that moment is
/// kept in ``captured`` too.
public enum RuntimeLogs {
    /// The environment variable that starts a process with the logs on (`1`, `true`, `yes`).
    public static let environmentVariable = "BENCHBOOK_RUNTIME_LOGS"
    /// At most this many captured lines are kept (the oldest are dropped first).
    public static let capacity = 1000

    private static let state = State()

    /// Whether LiteRT's and libtorch's log lines reach standard error. Default: false, unless
    /// `BENCHBOOK_RUNTIME_LOGS` is set to `1`, `true` or `yes`.
    public static var isEnabled: Bool {
        get { state.withLock { $0.enabled } }
        set {
            state.withLock { $0.enabled = newValue }
            bbt_set_quiet(newValue ? 0 : 1)
            bbe_set_quiet(newValue ? 0 : 1)
        }
    }

    /// The lines kept while ``isEnabled`` was false, oldest first, each starting with the
    /// runtime's name (libtorch warnings are collected when this is read).
    public static var captured: [String] {
        collectTorchWarnings()
        collectExecuTorchLines()
        return state.withLock { $0.lines }
    }

    /// Empties ``captured``.
    public static func clear() {
        collectTorchWarnings()
        collectExecuTorchLines()
        state.withLock { $0.lines.removeAll() }
    }

    // MARK: Internal

    /// Applies the switch to libtorch once per process; called before libtorch is used.
    static func prepareTorch() {
        let first = state.withLock { state -> Bool in
            defer { state.torchPrepared = true }
            return !state.torchPrepared
        }
        if first { bbt_set_quiet(isEnabled ? 0 : 1) }
    }

    /// Runs a LiteRT call; while quiet, what it writes to standard error is kept in
    /// ``captured`` instead. Returns the body's result and the lines it wrote.
    static func quietly<T>(_ body: () throws(ModelError) -> T) throws(ModelError) -> (T, [String]) {
        guard !isEnabled else { return (try body(), []) }
        let saved = bbl_capture_stderr_begin()
        let result = Result { () throws(ModelError) in try body() }
        var lines: [String] = []
        if saved >= 0, let text = bbl_capture_stderr_end(saved) {
            lines = String(cString: text).split(whereSeparator: \.isNewline).map { "LiteRT: " + $0 }
            free(text)
            append(lines)
        }
        return (try result.get(), lines)
    }

    /// ExecuTorch's log lines, kept by its shim while quiet (its platform layer's log hook).
    private static func collectExecuTorchLines() {
        guard let text = bbe_take_log() else { return }
        defer { bbe_free_string(text) }
        append(String(cString: text).split(whereSeparator: \.isNewline).map { "ExecuTorch: " + $0 })
    }

    private static func collectTorchWarnings() {
        guard let text = bbt_take_warnings() else { return }
        defer { bbt_free_string(text) }
        append(String(cString: text).split(whereSeparator: \.isNewline).map(String.init))
    }

    private static func append(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        state.withLock { state in
            state.lines += lines
            if state.lines.count > capacity { state.lines.removeFirst(state.lines.count - capacity) }
        }
    }

    /// The switch and the buffer behind a lock.
    private final class State: @unchecked Sendable {
        struct Values {
            var enabled: Bool
            var lines: [String] = []
            var torchPrepared = false
        }

        private let lock = NSLock()
        private var values: Values

        init() {
            values = Values(enabled: LibrarySettings.current.runtimeLogs)
        }

        func withLock<R>(_ body: (inout Values) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&values)
        }
    }
}
