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
    public var comms: [CommTraffic] = []
    public func comm(_ traffic: CommTraffic) { comms.append(traffic) }
    public func result(data: JSONValue, metadata: JSONValue) { results.append(data["text/plain"]?.stringValue ?? "") }
    public func requestInput(prompt: String, password: Bool, isStopped: () -> Bool) -> InputAnswer {
        inputAnswer.map(InputAnswer.text) ?? .notAllowed
    }
}

/// Skips the calling test when something it needs is missing, or fails it when the
/// environment variable `CI` is `true` (as CI systems set it): there, a missing dependency
/// is a broken set-up, and a skip would hide it.
/// - Parameters:
///   - reason: what is missing and how to provide it.
///   - file: the caller's file, reported with the skip or failure.
///   - line: the caller's line.
/// - Throws: `XCTSkip` outside CI; in CI, a ``MissingDependency``, which fails the test.
public func skipOrFail(_ reason: String, file: StaticString = #filePath, line: UInt = #line) throws -> Never {
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        throw MissingDependency(reason: reason, location: "\(file):\(line)")
    }
    throw XCTSkip(reason, file: file, line: line)
}

/// A dependency of a test missing in CI, where it must be present.
public struct MissingDependency: Error, CustomStringConvertible {
    /// What is missing and how to provide it.
    public var reason: String
    /// Where the test found it missing ("file:line").
    public var location: String

    public var description: String { "\(location): missing in CI (CI=true), so failed, not skipped: \(reason)" }
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
        try skipOrFail("build the products first (swift build) so \(host.path) and libBenchbook.so exist")
    }
    var configuration = EngineConfiguration.beside(executable: host)
    configuration.libraryDirectory = build
    configuration.hostExecutable = host
    configuration.parserExecutable = build.appendingPathComponent("benchbook-cell-parser")
    // These tests exercise the compile path; the cell cache is tested on its own (a shared
    // cache would make a second run of a test load instead of compile).
    if ProcessInfo.processInfo.environment["BENCHBOOK_CELL_CACHE"] == nil { configuration.cellCache = .off }
    return CellEngine(configuration: configuration)
}
