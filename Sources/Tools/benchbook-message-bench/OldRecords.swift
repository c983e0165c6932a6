import CellSource

// The parser's and compiler's messages as they were sent before HelperProtocol: Codable records
// with synthesised coding, of the same shapes (field names and cases) as CellSource's records then.
enum OldParserRequest: Codable { case analyze(source: String, bindingsAreLocal: Bool, marksTypes: Bool) }
enum OldParserResponse: Codable { case analysis(OldAnalysis), rejected(String) }
struct OldCompileRequest: Codable { var arguments: [String] }
enum OldCompileResponse: Codable { case succeeded, failed(diagnostics: String), unavailable(String) }
struct OldPosition: Codable, Equatable {
    var line: Int, column: Int
    init(_ p: SourcePosition) { line = p.line; column = p.column }
}
struct OldInsertion: Codable, Equatable {
    var position: OldPosition, length: Int
    init(_ i: Insertion) { position = OldPosition(i.position); length = i.length }
}
struct OldSnippet: Codable, Equatable {
    var text: String, start: OldPosition, insertions: [OldInsertion]
    init(_ s: SourceSnippet) { text = s.text; start = OldPosition(s.start); insertions = s.insertions.map(OldInsertion.init) }
}
struct OldName: Codable, Equatable {
    var name: String, kind: String, signature: String, inherited: [String]
    init(_ n: DeclaredName) { name = n.name; kind = n.kind.rawValue; signature = n.signature; inherited = n.inherited }
}
struct OldExport: Codable, Equatable {
    var name: String, introducer: String, type: String?, line: Int, isAsyncLet: Bool
    init(_ e: ScopeExport) { name = e.name; introducer = e.introducer; type = e.type; line = e.line; isAsyncLet = e.isAsyncLet }
}
struct OldBinding: Codable, Equatable {
    var snippet: OldSnippet, names: [String], annotationOffset: Int?, exports: [OldExport]
    init(_ b: ModuleBinding) { snippet = OldSnippet(b.snippet); names = b.names; annotationOffset = b.annotationOffset; exports = b.exports.map(OldExport.init) }
}
struct OldScope: Codable, Equatable {
    var statements: [OldSnippet], exports: [OldExport], isAsync: Bool
    init(_ s: LocalScope) { statements = s.statements.map(OldSnippet.init); exports = s.exports.map(OldExport.init); isAsync = s.isAsync }
}
struct OldUnset: Codable, Equatable {
    var name: String, type: String, isConstant: Bool, position: OldPosition
    init(_ u: UnsetBinding) { name = u.name; type = u.type; isConstant = u.isConstant; position = OldPosition(u.position) }
}
struct OldProblem: Codable, Equatable {
    var message: String, position: OldPosition
    init(_ p: SyntaxProblem) { message = p.message; position = OldPosition(p.position) }
}
enum OldItem: Codable, Equatable {
    case declaration(OldSnippet, [OldName]), moduleWideDeclaration(OldSnippet), binding(OldBinding), localScope(OldScope)
    case unsetBinding(OldUnset), statement(OldSnippet), result(OldSnippet), `import`(String)
    init(_ item: CellItem) {
        switch item {
        case .declaration(let s, let n): self = .declaration(OldSnippet(s), n.map(OldName.init))
        case .moduleWideDeclaration(let s): self = .moduleWideDeclaration(OldSnippet(s))
        case .binding(let b): self = .binding(OldBinding(b))
        case .localScope(let s): self = .localScope(OldScope(s))
        case .unsetBinding(let u): self = .unsetBinding(OldUnset(u))
        case .statement(let s): self = .statement(OldSnippet(s))
        case .result(let s): self = .result(OldSnippet(s))
        case .import(let text): self = .import(text)
        }
    }
}
struct OldAnalysis: Codable, Equatable {
    var items: [OldItem], identifiers: Set<String>, references: Set<String>, definedNames: Set<String>
    var hasTopLevelAwait: Bool, syntaxProblems: [OldProblem], reservedNames: [OldProblem], editInsertions: [OldInsertion]
    var declaresOperators: Bool, containsCode: Bool, declaresCallables: Bool
    init(_ a: CellAnalysis) {
        items = a.items.map(OldItem.init); identifiers = a.identifiers; references = a.references; definedNames = a.definedNames
        hasTopLevelAwait = a.hasTopLevelAwait; syntaxProblems = a.syntaxProblems.map(OldProblem.init)
        reservedNames = a.reservedNames.map(OldProblem.init); editInsertions = a.editInsertions.map(OldInsertion.init)
        declaresOperators = a.declaresOperators; containsCode = a.containsCode; declaresCallables = a.declaresCallables
    }
}
