import Foundation

/// Locates committed test fixtures relative to this source file.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A file under Tests/Fixtures/benchmark.
    static func benchmark(_ name: String) -> URL {
        root.appendingPathComponent("benchmark").appendingPathComponent(name)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("benchbook-bench-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// True when `a` and `b` agree to a relative tolerance (absolute near zero).
func close(_ a: Double, _ b: Double, relative: Double = 1e-12) -> Bool {
    abs(a - b) <= relative * max(abs(a), abs(b), 1e-300)
}
