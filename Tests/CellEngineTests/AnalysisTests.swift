@testable import CellEngine
import XCTest

final class AnalysisTests: XCTestCase {
    func testItemsAreClassifiedInOrder() {
        let analysis = CellAnalysis(source: """
        import Foundation
        struct Point { var x: Int }
        let a = 1, b = 2
        var model = try load()
        print(a)
        extension Point: Equatable {}
        a + b
        """)
        let kinds = analysis.items.map { item -> String in
            switch item {
            case .import: "import"
            case .declaration(_, let names, let kind): "decl \(names) \(kind.map { $0.rawValue } ?? "-")"
            case .moduleWideDeclaration: "module-wide"
            case .plainBinding(_, let names): "binding \(names)"
            case .evaluatedBinding(let binding): "evaluated \(binding.names) async=\(binding.isAsync)"
            case .statement: "statement"
            case .result: "result"
            }
        }
        XCTAssertEqual(kinds, ["import", "decl [\"Point\"] struct", "binding [\"a\", \"b\"]",
                               "evaluated [\"model\"] async=false", "statement", "module-wide", "result"])
        XCTAssertEqual(analysis.definedNames, ["Point", "a", "b", "model"])
        XCTAssertFalse(analysis.hasTopLevelAwait)
    }

    func testAssignmentsAndTrailingControlFlowShowNothing() {
        for source in ["x = 5", "x += 1", "if true { 1 }", "for i in 0..<3 { print(i) }"] {
            let analysis = CellAnalysis(source: source)
            XCTAssertFalse(analysis.items.contains { if case .result = $0 { return true }; return false }, source)
        }
        let comparison = CellAnalysis(source: "x == 5")
        XCTAssertTrue(comparison.items.contains { if case .result = $0 { return true }; return false })
    }

    func testAwaitInsideClosuresIsNotTopLevel() {
        XCTAssertFalse(CellAnalysis(source: "Task { await f() }").hasTopLevelAwait)
        XCTAssertTrue(CellAnalysis(source: "let v = await f()\nv").items.contains {
            if case .evaluatedBinding(let b) = $0 { return b.isAsync }; return false
        })
        XCTAssertTrue(CellAnalysis(source: "await f()").hasTopLevelAwait)
        XCTAssertFalse(CellAnalysis(source: "let v = try? f()").items.contains {
            if case .evaluatedBinding = $0 { return true }; return false
        })
    }

    func testReferencesExcludeMembers() {
        let analysis = CellAnalysis(source: "let y = point.x + other\nlet t: Shape = s")
        XCTAssertTrue(analysis.references.isSuperset(of: ["point", "other", "Shape", "s"]))
        XCTAssertFalse(analysis.references.contains("x"))
    }

    func testSyntaxErrorsHavePositions() {
        let analysis = CellAnalysis(source: "let ok = 1\nlet = 5")
        XCTAssertEqual(analysis.syntaxProblems.first?.position.line, 2)
    }

    func testCommentsOnlyIsEmpty() {
        XCTAssertTrue(CellAnalysis(source: "// note\n/* block */\n  ").isEmpty)
    }

    func testConformanceExtensionMembersBecomePublicWithRecordedInsertions() {
        let analysis = CellAnalysis(source: "extension P: CustomStringConvertible { var description: String { \"p\" } }")
        guard case .moduleWideDeclaration(let snippet, false) = analysis.items.first else { return XCTFail("\(analysis.items)") }
        XCTAssertTrue(snippet.text.contains("{ public var description"))
        XCTAssertEqual(snippet.insertions, [Insertion(position: SourcePosition(line: 1, column: 40), length: 7)])
    }

    func testCompleteness() {
        XCTAssertEqual(Completeness(code: "let x = 1"), .complete)
        XCTAssertEqual(Completeness(code: "func f() {"), .incomplete(indent: "    "))
        XCTAssertEqual(Completeness(code: "if a {\n  if b {"), .incomplete(indent: "        "))
        XCTAssertEqual(Completeness(code: "let s = \"\"\"\nabc"), .incomplete(indent: ""))
        XCTAssertEqual(Completeness(code: "}"), .invalid)
        XCTAssertEqual(Completeness(code: "let = 5"), .invalid)
    }
}

final class DiagnosticsTests: XCTestCase {
    func testUserLocationsAreKeptAndGeneratedOnesHidden() {
        let output = """
        In[3]:2:9: error: cannot find 'y' in scope
        /tmp/benchbook-1/Cell7.swift:12:5: error: generic parameter 'T' could not be inferred in Cell6.Point
        In[3]:2:9: error: cannot find 'y' in scope
        error: link command failed
        """
        let found = CellCompiler.diagnostics(in: output, cellLabel: "In[3]")
        XCTAssertEqual(found.count, 3)
        XCTAssertEqual(found[0], CellDiagnostic(message: "cannot find 'y' in scope", position: SourcePosition(line: 2, column: 9)))
        XCTAssertEqual(found[1].message, "generic parameter 'T' could not be inferred in Point")
        XCTAssertNil(found[1].position)
    }

    func testInsertedTextIsSubtractedFromColumns() {
        let found = CellCompiler.diagnostics(in: "In[1]:1:60: error: oops", cellLabel: "In[1]",
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

    func testEventFramesAcrossReads() {
        var framer = EventFramer()
        let body = Array(#"{"event":"done","status":0}"#.utf8)
        let frame = [UInt8(body.count), 0, 0, 0] + body
        XCTAssertTrue(framer.append(Array(frame.prefix(10))).isEmpty)
        let events = framer.append(Array(frame.dropFirst(10)))
        XCTAssertEqual(events.count, 1)
        guard case .done(0, nil) = events[0] else { return XCTFail("\(events)") }
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
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool.lastPathComponent) \(arguments)")
    }
}
