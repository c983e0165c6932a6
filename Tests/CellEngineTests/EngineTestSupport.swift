import CellEngine
import Foundation
import JupyterWire
import XCTest

/// Collects what a cell produced.
final class RecordingOutput: CellOutput {
    var stdout = ""
    var stderr = ""
    var displays: [JSONValue] = []
    var results: [String] = []
    var inputAnswer: String?

    func stream(name: String, text: String) {
        if name == "stdout" { stdout += text } else { stderr += text }
    }
    func display(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool) { displays.append(data) }
    var clears = 0
    func clearOutput(wait: Bool) { clears += 1 }
    func result(data: JSONValue, metadata: JSONValue) { results.append(data["text/plain"]?.stringValue ?? "") }
    func requestInput(prompt: String, password: Bool) -> String? { inputAnswer }
}

/// The build directory these tests run from (it holds libBenchbook.so and the host).
func buildDirectory() -> URL {
    // The test bundle lives in .build/<config>/; the products sit beside it.
    var url = Bundle.main.bundleURL
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent("benchbook-cell-host").path) {
        url = url.deletingLastPathComponent()
    }
    return url
}

func makeEngine() throws -> CellEngine {
    let build = buildDirectory()
    let host = build.appendingPathComponent("benchbook-cell-host")
    guard FileManager.default.fileExists(atPath: host.path),
          FileManager.default.fileExists(atPath: build.appendingPathComponent("libBenchbook.so").path) else {
        throw XCTSkip("build the products first (swift build) so \(host.path) and libBenchbook.so exist")
    }
    var configuration = EngineConfiguration.beside(executable: host)
    configuration.libraryDirectory = build
    return CellEngine(configuration: configuration)
}
