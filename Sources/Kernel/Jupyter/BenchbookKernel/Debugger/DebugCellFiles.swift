import Foundation

/// The files the debugger knows cells by: `<prefix><murmur2 of the text><suffix>`, the
/// scheme ipykernel uses, so JupyterLab computes a cell's path itself from `debugInfo`.
struct DebugCellFiles: Sendable {
    /// The directory, with a trailing `/` (`debugInfo`'s `tmpFilePrefix`).
    let prefix: String
    /// `.swift` (`debugInfo`'s `tmpFileSuffix`).
    let suffix = ".swift"

    /// Files under `directory` (made on the first `dumpCell`).
    init(directory: URL) {
        prefix = directory.standardizedFileURL.path + "/"
    }

    /// The path of a cell with this text.
    func path(of code: String) -> String {
        prefix + String(Murmur2.hash(code)) + suffix
    }

    /// Writes the cell's text at its path.
    /// - Returns: the path.
    /// - Throws: the file system's error.
    func write(_ code: String) throws -> String {
        let path = path(of: code)
        try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: true)
        try Data(code.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// The text of a dumped cell, or nil for a path outside the prefix or not written.
    func read(_ path: String) -> String? {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard standardized.hasPrefix(prefix), standardized.hasSuffix(suffix),
              let data = FileManager.default.contents(atPath: standardized) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
