import CellParsing
import CellSource
import Testing

/// A cell read as part of one main.swift: top-level `#if`, file-scope access, several names
/// without values, backticked names, reserved names.
@Suite struct OneFileTests {
    func kinds(_ source: String) -> [String] {
        CellAnalysis(parsing: source).items.map { item in
            switch item {
            case .declaration(_, let names): "declaration " + names.map(\.name).joined(separator: ",")
            case .moduleWideDeclaration: "module-wide"
            case .binding(let binding): "binding " + binding.names.joined(separator: ",")
            case .localScope(let scope): "scope " + scope.exports.map(\.name).joined(separator: ",")
            case .unsetBinding(let binding): "unset \(binding.name): \(binding.type)"
            case .statement(let snippet): "statement " + snippet.text
            case .result(let snippet): "result " + snippet.text
            case .import(let text): text
            }
        }
    }

    @Test func activeBranchesOfTopLevelIfBecomeItemsAtTheirLines() {
        let analysis = CellAnalysis(parsing: "#if os(Linux)\nprint(1)\nlet a = 2\n#else\nprint(0)\n#endif\na")
        #expect(analysis.syntaxProblems.isEmpty)
        #expect(kinds("#if os(Linux)\nprint(1)\nlet a = 2\n#else\nprint(0)\n#endif\na") == ["statement print(1)", "binding a", "result a"])
        guard case .binding(let binding) = analysis.items[1] else { Issue.record("\(analysis.items)"); return }
        #expect(binding.snippet.start == SourcePosition(line: 3, column: 1))
    }

    @Test func conditionsAreThoseOfSwiftcMainSwift() {
        #expect(kinds("#if DEBUG\nprint(1)\n#endif").isEmpty)
        #expect(kinds("#if canImport(Glibc) && swift(>=5) && !swift(>=6)\nprint(1)\n#endif") == ["result print(1)"])
        #expect(kinds("#if compiler(>=99)\nnot Swift at all (\n#elseif false\nprint(2)\n#else\n#if true\nfunc f() {}\n#endif\n#endif")
            == ["declaration f"])
    }

    @Test func fileScopeAccessIsBlankedButLocalAccessIsKept() {
        let analysis = CellAnalysis(parsing: "private let a = 1\nstruct S { fileprivate var b = 2; private(set) var c = 3\n  func f() { struct L { private var d = 4 } } }")
        guard case .binding(let binding) = analysis.items[0], case .declaration(let snippet, _) = analysis.items[1] else {
            Issue.record("\(analysis.items)"); return
        }
        #expect(binding.snippet.text == "let a = 1" && binding.snippet.start == SourcePosition(line: 1, column: 9))
        #expect(!snippet.text.contains("fileprivate") && !snippet.text.contains("private(set)"))
        #expect(snippet.text.contains("private var d"), "a local type keeps its access")
    }

    @Test func severalNamesWithoutValuesTakeTheTypeWrittenAfterThem() {
        #expect(kinds("var red, green, blue: Double") == ["unset red: Double", "unset green: Double", "unset blue: Double"])
        #expect(kinds("var w: Double, label: String") == ["unset w: Double", "unset label: String"])
    }

    @Test func backticksAreNotPartOfANameButReservedPrefixesAre() {
        #expect(kinds("let `let` = 1\nfunc `func`() {}") == ["binding let", "declaration func"])
        #expect(CellAnalysis(parsing: "x + `y`").references == ["x", "y"])
        let reserved = CellAnalysis(parsing: "let ok = 1\nfunc f(__bb: Int) {}\nstruct _BenchbookThing {}")
        #expect(reserved.reservedNames.map(\.position) == [SourcePosition(line: 2, column: 8), SourcePosition(line: 3, column: 8)])
        #expect(reserved.reservedNames.allSatisfy { $0.message.contains("reserved") })
        #expect(CellAnalysis(parsing: "_BenchbookCell.pollInterrupt()").reservedNames.isEmpty, "only declared names are refused")
    }
}
