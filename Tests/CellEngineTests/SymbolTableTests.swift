@testable import CellEngine
import CellParsing
import CellSource
import Testing

/// The import lines a cell gets: every live declaration of earlier cells, replaced ones
/// left out, overloads kept, operators through the chain.
@Suite struct SymbolTableTests {
    var table = SymbolTable()
    var executed = 0

    mutating func run(_ source: String) {
        executed += 1
        let analysis = CellAnalysis(parsing: source)
        table.record(analysis, module: "Cell\(executed)", cellLabel: "In[\(executed)]", execution: executed,
                     boundCount: analysis.definedNames.count)
    }

    func imports(_ source: String) -> [String] {
        table.dependencies(of: CellAnalysis(parsing: source)).imports
    }

    @Test mutating func aNewSignatureAddsAnOverloadAndTheSameOneReplaces() {
        run("func greet(person: String) -> String { person }")
        run("func greet(person: String, twice: Bool) -> String { person }")
        #expect(imports("greet(person: \"a\")") == ["@testable import func Cell1.greet", "@testable import func Cell2.greet"])
        // Another result type is another overload, as in one file.
        run("func greet(person: String) -> Int { 1 }")
        #expect(imports("greet(person: \"a\")") == ["@testable import func Cell1.greet", "@testable import func Cell2.greet", "@testable import func Cell3.greet"])
        run("func greet(person: String) -> String { person + \"!\" }")
        #expect(imports("greet(person: \"a\")") == ["@testable import func Cell2.greet", "@testable import func Cell3.greet", "@testable import func Cell4.greet"])
        // A cell that declares the signature itself does not import the one it replaces.
        #expect(imports("func greet(person: String) -> Int { 2 }\ngreet(person: \"a\")") == ["@testable import func Cell2.greet", "@testable import func Cell4.greet"])
    }

    @Test mutating func aCellWithAReplacedAndALiveOverloadIsImportedWhole() {
        run("func f(_ x: Int) {}\nfunc f(_ x: String) {}")
        run("func f(_ x: Int) {}")
        #expect(imports("f(1)") == ["@testable import func Cell2.f", "@testable import Cell1"])
    }

    @Test mutating func anyLaterDeclarationOfATypeOrVariableNameReplacesIt() {
        run("struct Point { var x: Int }\nvar count = 1")
        run("struct Point { var x, y: Int }\nlet count = \"many\"")
        #expect(imports("Point(x: 1, y: 2)\ncount") == ["@testable import struct Cell2.Point", "@testable import var Cell2.count"])
    }

    @Test mutating func typesBringTheirAncestorsAndActorsImportAsClasses() {
        run("class A { var d: String { \"A\" } }")
        run("class B: A {}")
        run("actor Counter {}")
        #expect(imports("class C: B { override var d: String { \"C\" } }\nlet c = Counter()")
                == ["@testable import class Cell1.A", "@testable import class Cell2.B", "@testable import class Cell3.Counter"])
    }

    @Test mutating func operatorCellsFormAChainImportedThroughTheNewest() {
        run("struct V { var x = 0 }")
        run("extension V { static func + (l: V, r: V) -> V { l } }")
        run("extension V { var twice: Int { x * 2 } }")
        run("extension V { static func + (l: V, r: V) -> V { r } }")
        #expect(imports("let v = V()") == ["@testable import struct Cell1.V", "@testable import Cell4",
                                           "@testable import enum Cell2.__BenchbookCellMarker",
                                           "@testable import enum Cell3.__BenchbookCellMarker"])
        #expect(imports("infix operator <+>").last == "@_exported import Cell4", "a new operator cell re-exports the newest")
    }

    @Test mutating func anOperatorDeclaredAgainIsDeclaredAgainInLaterCells() {
        run("infix operator <+>: AdditionPrecedence\nprecedencegroup Power { higherThan: MultiplicationPrecedence }")
        run("func <+>(l: Int, r: Int) -> Int { l * 10 + r }")
        func shadowing(_ source: String) -> [String] { table.dependencies(of: CellAnalysis(parsing: source)).shadowing }
        #expect(shadowing("1 <+> 2") == [], "declared once: the imported declaration is the only one")
        run("infix operator <+>: MultiplicationPrecedence")
        let power = "precedencegroup Power { higherThan: MultiplicationPrecedence }"
        #expect(shadowing("1 <+> 2") == ["infix operator <+>: MultiplicationPrecedence", power])
        #expect(shadowing("infix operator <+>: AdditionPrecedence") == [power], "a cell declaring it again has its own")
        run("precedencegroup Power {\n    higherThan: AdditionPrecedence\n}")
        #expect(shadowing("1 <+> 2") == ["infix operator <+>: MultiplicationPrecedence",
                                         "precedencegroup Power {\n    higherThan: AdditionPrecedence\n}"])
        #expect(OperatorDeclarations.key(of: "prefix operator √") == "prefix operator √")
        #expect(OperatorDeclarations.key(of: "infix operator |>: Pipe") == "infix operator |>")
        #expect(OperatorDeclarations.key(of: "extension Int { static func <+> (l: Int, r: Int) -> Int { l } }") == nil)
    }

    @Test mutating func lostVariablesAreTheLiveOnesMadeAfterTheSnapshot() {
        run("var a = 1")
        run("var a = 2\nlet b = 3")
        let lost = table.markVariablesLost(after: 1)
        #expect(lost.map(\.name) == ["a", "b"])
        #expect(lost.allSatisfy { $0.cell == "In[2]" })
    }
}
