import Foundation

/// Kernel diagnostics go to standard error, which Jupyter servers keep in their log.
enum Log {
    static func info(_ message: String) { write("info", message) }
    static func warning(_ message: String) { write("warning", message) }

    private static func write(_ level: String, _ message: String) {
        FileHandle.standardError.write(Data("[benchbook \(level)] \(message)\n".utf8))
    }
}
