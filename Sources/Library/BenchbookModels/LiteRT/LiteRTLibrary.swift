internal import CLiteRT
import BenchbookSettings
import Foundation

/// Finds and opens LiteRT's `libLiteRt.so`, which ships inside the PyPI wheel
/// `ai-edge-litert` in the project's `.venv`.
///
/// Search order: the environment variable `BENCHBOOK_LITERT_LIBRARY` (when set, the only
/// place looked at); otherwise
/// `.venv/lib/python3*/site-packages/ai_edge_litert/libLiteRt.so` in the current directory,
/// the executable's directory, the checkout this library was built from, and each of
/// their parent directories.
enum LiteRTLibrary {
    /// The environment variable that names the library file directly.
    static let environmentVariable = "BENCHBOOK_LITERT_LIBRARY"

    private static let opened: Result<String, ModelError> = open()

    /// Opens the library once per process.
    /// - Returns: the path it was opened from.
    /// - Throws: ``ModelError/runtimeLibraryMissing(runtime:searched:reason:)`` naming the
    ///   places searched.
    static func load() throws(ModelError) -> String { try opened.get() }

    private static func open() -> Result<String, ModelError> {
        let candidates = candidatePaths()
        guard let path = candidates.found else {
            return .failure(.runtimeLibraryMissing(runtime: "LiteRT", searched: candidates.searched,
                                                   reason: "libLiteRt.so was not found"))
        }
        var message = [CChar](repeating: 0, count: 1024)
        if bbl_open(path, &message, message.count) != 0 {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.runtimeLibraryMissing(runtime: "LiteRT", searched: [path], reason: reason))
        }
        return .success(path)
    }

    /// The first existing candidate and every place looked at.
    /// - Parameter environment: the process environment; a set `BENCHBOOK_LITERT_LIBRARY`
    ///   is the only place looked at.
    static func candidatePaths(environment: [String: String]? = nil)
        -> (found: String?, searched: [String]) {
        var searched: [String] = []
        let fileManager = FileManager.default
        let settings = environment.map { (try? LibrarySettings(environment: $0)) ?? LibrarySettings() } ?? .current
        if let explicit = settings.liteRTLibrary {
            searched.append(explicit + " (\(environmentVariable))")
            return (fileManager.fileExists(atPath: explicit) ? explicit : nil, searched)
        }
        var starts = [fileManager.currentDirectoryPath]
        if let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append((executable as NSString).deletingLastPathComponent)
        }
        // The checkout this file was compiled in (Sources/Library/BenchbookModels/LiteRT/ -> root).
        starts.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path)
        var visited = Set<String>()
        for start in starts {
            var directory = URL(fileURLWithPath: start).standardizedFileURL
            while true {
                if visited.insert(directory.path).inserted {
                    let venvLib = directory.appendingPathComponent(".venv/lib")
                    searched.append(venvLib.path + "/python3*/site-packages/ai_edge_litert/libLiteRt.so")
                    let pythons = ((try? fileManager.contentsOfDirectory(atPath: venvLib.path)) ?? [])
                        .filter { $0.hasPrefix("python3") }.sorted()
                    for python in pythons {
                        let candidate = venvLib.appendingPathComponent(python)
                            .appendingPathComponent("site-packages/ai_edge_litert/libLiteRt.so").path
                        if fileManager.fileExists(atPath: candidate) { return (candidate, searched) }
                    }
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return (nil, searched)
    }
}
