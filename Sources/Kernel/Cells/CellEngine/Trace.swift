import BenchbookSettings
import Foundation

/// Timing of the engine's steps on standard error, when `BENCHBOOK_TRACE` is set.
/// For finding where a cell's time goes; off by default.
public enum Trace {
    public static let isEnabled = KernelSettings.current.trace

    /// Logs how long a step took.
    public static func step(_ name: String, since start: DispatchTime) {
        guard isEnabled else { return }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        FileHandle.standardError.write(Data("[benchbook trace] \(name): \(String(format: "%.1f", milliseconds)) ms\n".utf8))
    }

    /// Logs a note when tracing is on.
    public static func note(_ text: String) {
        guard isEnabled else { return }
        FileHandle.standardError.write(Data("[benchbook trace] \(text)\n".utf8))
    }

    /// Logs a warning whether or not tracing is on (a kernel's standard error is its log,
    /// never shown in a notebook).
    public static func warning(_ text: String) {
        FileHandle.standardError.write(Data("[benchbook] warning: \(text)\n".utf8))
    }
}
