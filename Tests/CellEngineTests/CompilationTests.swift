@testable import CellEngine
import Foundation
import SystemSupport
import XCTest

final class DiagnosticsTests: XCTestCase {
    func testUserLocationsAreKeptAndGeneratedOnesHidden() {
        let output = """
        In[3]:2:9: error: cannot find 'y' in scope
        /tmp/benchbook-1/Cell7.swift:12:5: error: generic parameter 'T' could not be inferred in Cell6.Point
        In[3]:2:9: error: cannot find 'y' in scope
        error: link command failed
        """
        let found = CompilerDiagnostics.parse(output, cellLabel: "In[3]")
        XCTAssertEqual(found.count, 3)
        XCTAssertEqual(found[0], CellDiagnostic(message: "cannot find 'y' in scope", position: SourcePosition(line: 2, column: 9)))
        XCTAssertEqual(found[1].message, "generic parameter 'T' could not be inferred in Point")
        XCTAssertNil(found[1].position)
    }

    func testInsertedTextIsSubtractedFromColumns() {
        let found = CompilerDiagnostics.parse("In[1]:1:60: error: oops", cellLabel: "In[1]",
                                                insertions: [Insertion(position: SourcePosition(line: 1, column: 40), length: 7)])
        XCTAssertEqual(found.first?.position, SourcePosition(line: 1, column: 53))
    }
}

final class HostStreamTests: XCTestCase {
    func testStackTracesAndModuleNamesAreRemoved() {
        var filter = StackTraceFilter()
        let text = filter.append("Cell4/In[5]:1: Fatal error: boom\nCurrent stack trace:\n0    libswiftCore.so    0x00007f 0 swift_reportError + 33\n1    libCell4.so   0x0000 <unavailable> + 12\nafter\npartial")
        XCTAssertEqual(text, "In[5]:1: Fatal error: boom\nafter\n")
        XCTAssertEqual(filter.flush(), "partial")
    }

    func testUTF8SequencesAreNotSplit() {
        var stream = UTF8Stream()
        let bytes = Array("é!".utf8)
        XCTAssertEqual(stream.append([bytes[0]]), "")
        XCTAssertEqual(stream.append(Array(bytes[1...])), "é!")
    }
}

final class AutolinkTests: XCTestCase {
    func testEntriesOfARealObjectMatchSwiftAutolinkExtract() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("autolink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let source = work.appendingPathComponent("a.swift")
        try "import Foundation\npublic func f() -> Date { Date() }\n".write(to: source, atomically: true, encoding: .utf8)
        let swiftc = EngineConfiguration.beside(executable: URL(fileURLWithPath: "/x")).compiler
        let object = work.appendingPathComponent("a.o")
        try runTool(swiftc, ["-c", "-parse-as-library", source.path, "-o", object.path])
        let listed = work.appendingPathComponent("a.autolink")
        try runTool(swiftc.deletingLastPathComponent().appendingPathComponent("swift-autolink-extract"), [object.path, "-o", listed.path])
        let expected = try String(contentsOf: listed, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertTrue(expected.contains("-lFoundation"))
        // The tool orders the entries its own way; the set of libraries is what counts.
        let read = try XCTUnwrap(AutolinkEntries.read(from: try Data(contentsOf: object)))
        XCTAssertEqual(Set(read), Set(expected))
        XCTAssertEqual(read.count, Set(read).count, "entries are listed once")
        XCTAssertNil(AutolinkEntries.read(from: Data("not an object".utf8)))
    }

    private func runTool(_ tool: URL, _ arguments: [String]) throws {
        let run = try ChildProcess.run(ChildProcess.Configuration(executable: tool.path, arguments: arguments))
        XCTAssertEqual(run.status, .exited(code: 0), "\(tool.lastPathComponent) \(arguments): \(run.text)")
    }
}
