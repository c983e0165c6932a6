import CellParsing
import CellSource
import Testing

/// How top-level items are classified for the cell model: names with signatures and
/// ancestry, the statements that share a local scope, variables declared without a value.
@Suite struct CellModelTests {
    func declared(_ source: String) -> [DeclaredName] {
        CellAnalysis(parsing: source).items.flatMap { item -> [DeclaredName] in
            if case .declaration(_, let names) = item { return names }
            return []
        }
    }

    func scopes(_ source: String) -> [LocalScope] {
        CellAnalysis(parsing: source).items.compactMap { item in
            if case .localScope(let scope) = item { return scope }
            return nil
        }
    }

    @Test func functionsAreKnownByLabelsAndParameterTypes() {
        #expect(declared("func greet(person: String) -> String { person }").map(\.signature) == ["greet(person:String)->String"])
        #expect(declared("func greet(person p: String, twice: Bool = false) {}").map(\.signature) == ["greet(person:String,twice:Bool)"])
        #expect(declared("func sum(_ xs: Int...) -> Int { 0 }").map(\.signature) == ["sum(_:Int...)->Int"])
        // The result type is part of it: `area() -> Double` is an overload of `area() -> Int`.
        #expect(declared("func area() -> Int { 1 }") .map(\.signature) != declared("func area() -> Double { 1 }").map(\.signature))
        #expect(declared("func `func`(_ `in`: Int) -> [Int] { [] }").map(\.signature) == ["func(_:Int)->[Int]"])
        #expect(declared("struct V {}").map(\.signature) == ["V"])
    }

    @Test func typesRecordWhatTheyInheritAndActorsAreTypes() {
        let names = declared("class C: B, Shape {}\nactor Counter { var n = 0 }\nstruct Box<T>: Holder where T: Equatable {}")
        #expect(names.map(\.kind) == [.class, .actor, .struct])
        #expect(names[0].inherited == ["B", "Shape"])
        #expect(names[2].inherited == ["Holder"])
        #expect(DeclarationKind.actor.importKeyword == "class")
    }

    @Test func operatorFunctionsAnywhereButInBodiesAreFound() {
        #expect(CellAnalysis(parsing: "extension V { static func + (l: V, r: V) -> V { l } }").declaresOperators)
        #expect(CellAnalysis(parsing: "struct V { static prefix func - (v: V) -> V { v } }").declaresOperators)
        #expect(CellAnalysis(parsing: "infix operator <+>").declaresOperators)
        #expect(!CellAnalysis(parsing: "func f() { func g() {} }\nlet x = 1 + 2").declaresOperators)
    }

    @Test func aBindingGuardRunsInItsOwnScopeAndExportsItsNames() {
        let found = scopes("let maybe: Int? = 1\nguard let v = maybe, case var (a, b)? = pair else { fatalError() }\nprint(v)")
        #expect(found.count == 1)
        #expect(found.first?.statements.count == 1)
        #expect(found.first?.exports.map(\.name) == ["v", "a", "b"])
        #expect(found.first?.exports.map(\.introducer) == ["let", "var", "var"])
        #expect(scopes("guard x > 0 else { fatalError() }").isEmpty, "a guard that binds nothing is a statement")
    }

    @Test func asyncLetLastsUntilItsLastUseButNotTheShownResult() {
        let analysis = CellAnalysis(parsing: "async let a = slow()\nasync let b = slow()\nlet n = 1\nprint(await a + b)\nawait a")
        #expect(analysis.hasTopLevelAwait)
        guard case .localScope(let scope) = analysis.items.first else { Issue.record("\(analysis.items)"); return }
        #expect(scope.statements.count == 4)
        #expect(scope.exports.map(\.name) == ["a", "b", "n"])
        #expect(scope.exports.map(\.isAsyncLet) == [true, true, false])
        #expect(scope.isAsync)
        #expect(analysis.items.last?.isResult == true)
    }

    @Test func typedNamesWithoutValuesBecomeVariablesThatAssignmentsSet() {
        let analysis = CellAnalysis(parsing: "let h: Int\nvar names: [String]\nif flag { h = 1 } else { h = 2 }")
        let unset = analysis.items.compactMap { item -> UnsetBinding? in
            if case .unsetBinding(let binding) = item { return binding }
            return nil
        }
        #expect(unset.map(\.name) == ["h", "names"])
        #expect(unset.map(\.isConstant) == [true, false])
        #expect(unset.map(\.type) == ["Int", "[String]"])
        #expect(analysis.definedNames == ["h", "names"])
    }

    @Test func aTupleWithoutValueSharesAScopeWithItsAssignment() {
        let found = scopes("let (a, b): (Int, Int)\nprint(1)\n(a, b) = (1, 2)\nprint(a)")
        #expect(found.first?.statements.count == 3)
        #expect(found.first?.exports.map(\.name) == ["a", "b"])
    }

    @Test func aDeferInsideAScopeKeepsItToTheEndOfTheCell() {
        let found = scopes("async let a = f()\ndefer { print(1) }\nprint(await a)\nprint(2)\na")
        #expect(found.first?.statements.count == 4, "up to the last statement, not the shown result")
        #expect(scopes("let v = try load()\ndefer { print(1) }\nprint(2)").first?.statements.count == 1,
                "a defer after the scope runs at the end of the cell anyway")
    }

    @Test func plainBindingsStayAtModuleScopeAndKnowWhereATypeGoes() {
        let analysis = CellAnalysis(parsing: "let s = makeShape()\nlet (p, q) = pair()")
        let bindings = analysis.items.compactMap { item -> ModuleBinding? in
            if case .binding(let binding) = item { return binding }
            return nil
        }
        #expect(bindings.map(\.names) == [["s"], ["p", "q"]])
        #expect(bindings[0].annotationOffset == 5, "right after `let s`")
        #expect(bindings[1].annotationOffset == nil, "a tuple pattern cannot take an opaque type")
        #expect(bindings[1].exports.map(\.name) == ["p", "q"])
    }
}

/// `@usableFromInline` on a cell's types and on the members of its classes a subclass can
/// override, so an override reaches cells two levels down (see OverrideVisibility).
@Suite struct OverrideVisibilityTests {
    func text(_ source: String, marks: Bool = true) -> String {
        CellAnalysis(parsing: source, marksTypes: marks).items.map { item -> String in
            if case .declaration(let snippet, _) = item { return snippet.text }
            return ""
        }.joined(separator: "\n")
    }

    @Test func typesAndOverridableClassMembersAreMarked() {
        let marked = text("class Vehicle { var speed = 0.0; let wheels = 4; final func stop() {}; static func make() {}; func go() {}; init() {} }")
        #expect(marked == "@usableFromInline class Vehicle { @usableFromInline var speed = 0.0; let wheels = 4; final func stop() {}; static func make() {}; @usableFromInline func go() {}; @usableFromInline init() {} }")
        #expect(text("struct Point { var x = 0; enum Kind { case a } }") == "@usableFromInline struct Point { var x = 0; @usableFromInline enum Kind { case a } }")
        #expect(text("protocol Shape { func area() -> Double }") == "protocol Shape { func area() -> Double }", "protocols never")
        #expect(text("public struct Shown {}\npublic class Open {}") == "public struct Shown {}\npublic class Open {}")
        // File-scope `private` means the whole notebook: the type is internal, and marked.
        #expect(text("private struct Hidden {}") == "@usableFromInline struct Hidden {}")
        #expect(text("class A { func f() {} }", marks: false) == "class A { func f() {} }")
    }

    @Test func columnsAfterAMarkAreMappedBack() {
        let analysis = CellAnalysis(parsing: "struct P {}")
        #expect(analysis.editInsertions == [Insertion(position: SourcePosition(line: 1, column: 1), length: 18)])
    }
}
