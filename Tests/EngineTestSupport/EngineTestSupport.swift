@_exported import CellEngine
import Foundation
import XCTest

/// Collects what a cell produced.
public final class RecordingOutput: CellOutput, @unchecked Sendable {
    public var stdout = ""
    public var stderr = ""
    public var displays: [JSONValue] = []
    public var results: [String] = []
    public var inputAnswer: String?

    public init() {}

    public func stream(name: String, text: String) {
        if name == "stdout" { stdout += text } else { stderr += text }
    }
    public func display(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool) { displays.append(data) }
    public var clears = 0
    public func clearOutput(wait: Bool) { clears += 1 }
    public func result(data: JSONValue, metadata: JSONValue) { results.append(data["text/plain"]?.stringValue ?? "") }
    public func requestInput(prompt: String, password: Bool, isStopped: () -> Bool) -> InputAnswer {
        inputAnswer.map(InputAnswer.text) ?? .notAllowed
    }
}

/// The build directory these tests run from (it holds libBenchbook.so and the host).
public func buildDirectory() -> URL {
    // The test bundle lives in .build/<config>/; the products sit beside it.
    var url = Bundle.main.bundleURL
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent("benchbook-cell-host").path) {
        url = url.deletingLastPathComponent()
    }
    return url
}

public func makeEngine() throws -> CellEngine {
    let build = buildDirectory()
    let host = build.appendingPathComponent("benchbook-cell-host")
    guard FileManager.default.fileExists(atPath: host.path),
          FileManager.default.fileExists(atPath: build.appendingPathComponent("libBenchbook.so").path) else {
        throw XCTSkip("build the products first (swift build) so \(host.path) and libBenchbook.so exist")
    }
    var configuration = EngineConfiguration.beside(executable: host)
    configuration.libraryDirectory = build
    configuration.hostExecutable = host
    configuration.parserExecutable = build.appendingPathComponent("benchbook-cell-parser")
    return CellEngine(configuration: configuration)
}
