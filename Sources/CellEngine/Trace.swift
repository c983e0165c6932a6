import Foundation

/// Timing of the engine's steps on standard error, when `BENCHBOOK_TRACE` is set.
/// For finding where a cell's time goes; off by default.
enum Trace {
    static let isEnabled = ProcessInfo.processInfo.environment["BENCHBOOK_TRACE"] != nil

    /// Logs how long a step took.
    static func step(_ name: String, since start: DispatchTime) {
        guard isEnabled else { return }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        FileHandle.standardError.write(Data("[benchbook trace] \(name): \(String(format: "%.1f", milliseconds)) ms\n".utf8))
    }
}
