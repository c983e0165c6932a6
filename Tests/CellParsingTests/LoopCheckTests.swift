import CellParsing
import CellSource
import Testing

/// Interrupt checks in cell loops: the throwing check where an error propagates, the
/// trapping one where it cannot, lines never moved, columns recorded.
@Suite struct LoopCheckTests {
    let throwing = "let _ = try _BenchbookCell.pollInterrupt(); "
    let trapping = "let _ = _BenchbookCell.pollInterruptOrStop(); "

    func text(_ source: String) -> String {
        CellAnalysis(parsing: source, marksTypes: false).items.map { item -> String in
            switch item {
            case .declaration(let snippet, _), .moduleWideDeclaration(let snippet),
                 .statement(let snippet), .result(let snippet):
                snippet.text
            case .binding(let binding): binding.snippet.text
            case .localScope(let scope): scope.statements.map(\.text).joined(separator: "\n")
            case .unsetBinding(let binding): binding.name
            case .import(let text): text
            }
        }.joined(separator: "\n")
    }

    @Test func cellStatementsGetTheThrowingCheck() {
        #expect(text("while true { n += 1 }") == "while true {\(throwing) n += 1 }")
        #expect(text("for i in 0... {\n  print(i)\n}") == "for i in 0... {\(throwing)\n  print(i)\n}")
        #expect(text("repeat { } while x") == "repeat {\(throwing) } while x")
    }

    @Test func onlyOuterIterationsOfBoundedForLoopsAreChecked() {
        // An innermost `for` over a bounded sequence ends on its own and stays vectorisable.
        #expect(text("for i in 0..<3 {\n  print(i)\n}") == "for i in 0..<3 {\n  print(i)\n}")
        #expect(text("for y in 0..<h { for x in 0..<w { f(x, y) } }") == "for y in 0..<h {\(throwing) for x in 0..<w { f(x, y) } }")
        #expect(text("for x in xs { while x > 0 {} }") == "for x in xs {\(throwing) while x > 0 {\(throwing)} }")
        #expect(text("for i in (1...) { }") == "for i in (1...) {\(throwing) }")
    }

    @Test func plainlyThrowingFunctionsGetTheThrowingCheck() {
        #expect(text("func f() throws { while true {} }") == "func f() throws { while true {\(throwing)} }")
        #expect(text("struct S { init() throws { for _ in 0... {} } }") == "struct S { init() throws { for _ in 0... {\(throwing)} } }")
    }

    @Test func codeThatCannotThrowGetsTheTrappingCheck() {
        #expect(text("func f() { while true {} }") == "func f() { while true {\(trapping)} }")
        #expect(text("func f() rethrows { while true {} }") == "func f() rethrows { while true {\(trapping)} }")
        #expect(text("func f() throws(E) { while true {} }") == "func f() throws(E) { while true {\(trapping)} }")
        #expect(text("xs.forEach { _ in while true {} }") == "xs.forEach { _ in while true {\(trapping)} }")
        #expect(text("var v: Int { repeat {} while x; return 1 }") == "var v: Int { repeat {\(trapping)} while x; return 1 }")
        #expect(text("defer { while x {} }") == "defer { while x {\(trapping)} }")
    }

    @Test func linesStayAndColumnsAreRecorded() {
        let analysis = CellAnalysis(parsing: "let a = 1\nwhile a > 0 { }")
        #expect(analysis.editInsertions == [Insertion(position: SourcePosition(line: 2, column: 14), length: throwing.utf8.count)])
        guard case .statement(let snippet) = analysis.items.last else { Issue.record("\(analysis.items)"); return }
        #expect(snippet.start == SourcePosition(line: 2, column: 1))
    }

    @Test func namesComeFromTheTextAsWritten() {
        let analysis = CellAnalysis(parsing: "while true { n += 1 }")
        #expect(!analysis.identifiers.contains("_BenchbookCell"))
        #expect(analysis.references == ["n"])
    }

    @Test func aCellWithSyntaxErrorsIsLeftAlone() {
        let analysis = CellAnalysis(parsing: "while true { let = 1 }")
        #expect(!analysis.syntaxProblems.isEmpty)
        #expect(analysis.editInsertions.isEmpty)
    }
}
