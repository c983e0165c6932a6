@testable import CellEngine
import EngineTestSupport
import Foundation
import XCTest

/// The long-lived compiler process: compiles, reports errors as swift-frontend prints them,
/// stops for an interrupt and comes back for the next cell, and says when it cannot work.
final class CellCompilerClientTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-compiler-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    func client(sourceKit: URL? = nil) throws -> CellCompilerClient {
        let executable = buildDirectory().appendingPathComponent("benchbook-cell-compiler")
        guard FileManager.default.fileExists(atPath: executable.path) else {
            try skipOrFail("build the products first (swift build) so \(executable.path) exists")
        }
        let toolchain = EngineConfiguration.beside(executable: executable)
        return CellCompilerClient(executable: executable, sourceKit: sourceKit ?? toolchain.sourceKitLibrary)
    }

    /// swift-frontend's arguments (without `-frontend`) for one file.
    func arguments(_ source: String, module: String) throws -> (arguments: [String], object: URL) {
        let file = directory.appendingPathComponent(module + ".swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let object = directory.appendingPathComponent(module + ".o")
        return (["-c", file.path, "-target", EngineConfiguration.targetTriple, "-module-name", module,
                 "-parse-as-library", "-Onone", "-o", object.path], object)
    }

    func testCompilesAndReportsErrorsWithTheirLines() throws {
        let compiler = try client()
        defer { compiler.stop() }
        let good = try arguments("public let answer = 42\n", module: "Good")
        XCTAssertEqual(compiler.compile(good.arguments, cancellation: CellCancellation()), .succeeded)
        XCTAssertTrue(FileManager.default.fileExists(atPath: good.object.path))

        let bad = try arguments("public let answer = 42\npublic let wrong: Int = \"x\"\n", module: "Bad")
        guard case .failed(let diagnostics) = compiler.compile(bad.arguments, cancellation: CellCancellation()) else {
            return XCTFail("a type error compiled")
        }
        XCTAssertTrue(diagnostics.contains("Bad.swift:2:"), diagnostics)
        XCTAssertTrue(diagnostics.contains("error: cannot convert value of type 'String' to specified type 'Int'"), diagnostics)
        XCTAssertEqual(CompilerDiagnostics.parse(diagnostics, cellLabel: bad.arguments[1]).first?.position?.line, 2)
    }

    func testAnInterruptStopsTheCompileAndTheNextOneRuns() throws {
        let compiler = try client()
        defer { compiler.stop() }
        // A function of 3,000 statements: seconds of compiling.
        let body = (0..<3_000).map { "    x &+= \($0)\n" }.joined()
        let slow = try arguments("public func f() -> Int {\n    var x = 0\n" + body + "    return x\n}\n", module: "Slow")
        let cancellation = CellCancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancellation.cancel() }
        let started = Date()
        XCTAssertEqual(compiler.compile(slow.arguments, cancellation: cancellation), .interrupted)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)

        let next = try arguments("public let after = 1\n", module: "After")
        XCTAssertEqual(compiler.compile(next.arguments, cancellation: CellCancellation()), .succeeded)
    }

    func testWithoutSourceKitItSaysSoEveryTime() throws {
        let compiler = try client(sourceKit: directory.appendingPathComponent("libsourcekitdInProc.so"))
        defer { compiler.stop() }
        let good = try arguments("public let answer = 42\n", module: "Good")
        for _ in 0..<2 {
            guard case .unavailable(let reason) = compiler.compile(good.arguments, cancellation: CellCancellation()) else {
                return XCTFail("compiled without SourceKit")
            }
            XCTAssertTrue(reason.contains("libsourcekitdInProc.so"), reason)
        }
    }
}
