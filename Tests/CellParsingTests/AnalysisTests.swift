import CellParsing
import CellSource
import XCTest

final class AnalysisTests: XCTestCase {
    func testItemsAreClassifiedInOrder() {
        let analysis = CellAnalysis(parsing: """
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
            case .declaration(_, let names): "decl \(names.map(\.name)) \(names.map(\.kind.rawValue).joined())"
            case .moduleWideDeclaration: "module-wide"
            case .binding(let binding): "binding \(binding.names)"
            case .localScope(let scope): "scope \(scope.exports.map(\.name)) async=\(scope.isAsync)"
            case .unsetBinding(let binding): "unset \(binding.name)"
            case .statement: "statement"
            case .result: "result"
            }
        }
        XCTAssertEqual(kinds, ["import", "decl [\"Point\"] struct", "binding [\"a\", \"b\"]",
                               "scope [\"model\"] async=false", "statement", "module-wide", "result"])
        XCTAssertEqual(analysis.definedNames, ["Point", "a", "b", "model"])
        XCTAssertFalse(analysis.hasTopLevelAwait)
    }

    func testAssignmentsAndTrailingControlFlowShowNothing() {
        for source in ["x = 5", "x += 1", "if true { 1 }", "for i in 0..<3 { print(i) }"] {
            let analysis = CellAnalysis(parsing: source)
            XCTAssertFalse(analysis.items.contains { if case .result = $0 { return true }; return false }, source)
        }
        let comparison = CellAnalysis(parsing: "x == 5")
        XCTAssertTrue(comparison.items.contains { if case .result = $0 { return true }; return false })
    }

    func testAwaitInsideClosuresIsNotTopLevel() {
        XCTAssertFalse(CellAnalysis(parsing: "Task { await f() }").hasTopLevelAwait)
        XCTAssertTrue(CellAnalysis(parsing: "let v = await f()\nv").items.contains {
            if case .localScope(let scope) = $0 { return scope.isAsync }; return false
        })
        XCTAssertTrue(CellAnalysis(parsing: "await f()").hasTopLevelAwait)
        XCTAssertFalse(CellAnalysis(parsing: "let v = try? f()").items.contains {
            if case .localScope = $0 { return true }; return false
        })
    }

    func testReferencesExcludeMembers() {
        let analysis = CellAnalysis(parsing: "let y = point.x + other\nlet t: Shape = s")
        XCTAssertTrue(analysis.references.isSuperset(of: ["point", "other", "Shape", "s"]))
        XCTAssertFalse(analysis.references.contains("x"))
    }

    func testSyntaxErrorsHavePositions() {
        let analysis = CellAnalysis(parsing: "let ok = 1\nlet = 5")
        XCTAssertEqual(analysis.syntaxProblems.first?.position.line, 2)
    }

    func testCommentsOnlyIsEmpty() {
        XCTAssertTrue(CellAnalysis(parsing: "// note\n/* block */\n  ").isEmpty)
    }

    func testConformanceExtensionMembersBecomePublicWithRecordedInsertions() {
        let analysis = CellAnalysis(parsing: "extension P: CustomStringConvertible { var description: String { \"p\" } }")
        guard case .moduleWideDeclaration(let snippet) = analysis.items.first else { return XCTFail("\(analysis.items)") }
        XCTAssertTrue(snippet.text.contains("{ public var description"))
        XCTAssertEqual(snippet.insertions, [Insertion(position: SourcePosition(line: 1, column: 40), length: 7)])
    }

    func testCompleteness() {
        XCTAssertEqual(Completeness(parsing: "let x = 1"), .complete)
        XCTAssertEqual(Completeness(parsing: "func f() {"), .incomplete(indent: "    "))
        XCTAssertEqual(Completeness(parsing: "if a {\n  if b {"), .incomplete(indent: "        "))
        XCTAssertEqual(Completeness(parsing: "let s = \"\"\"\nabc"), .incomplete(indent: ""))
        XCTAssertEqual(Completeness(parsing: "}"), .invalid)
        XCTAssertEqual(Completeness(parsing: "let = 5"), .invalid)
    }
}
