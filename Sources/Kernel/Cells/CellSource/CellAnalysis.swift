/// A syntax error found before compiling, with where it is in the cell.
public struct SyntaxProblem: Sendable, Equatable {
    public var message: String
    public var position: SourcePosition

    /// Creates a problem record.
    public init(message: String, position: SourcePosition) {
        self.message = message
        self.position = position
    }
}

/// What the kernel needs to know about one cell's source.
///
/// Made by the cell parser (a separate process, see `benchbook-cell-parser`), so that cell
/// text can never crash or freeze the kernel.
public struct CellAnalysis: Sendable, Equatable {
    /// The top-level items, in source order.
    public var items: [CellItem]
    /// Every identifier token in the cell (a superset of the names it uses).
    public var identifiers: Set<String>
    /// Names the cell refers to as values or types (not as members after a dot).
    public var references: Set<String>
    /// Names the cell declares or binds.
    public var definedNames: Set<String>
    /// True when a top-level statement uses `await`.
    public var hasTopLevelAwait: Bool
    /// Syntax errors; when not empty, the cell is not compiled.
    public var syntaxProblems: [SyntaxProblem]
    /// Names the cell declares that start with a prefix the generated code uses; when not
    /// empty, the cell is not compiled (see `RuntimeNames.reservedPrefixes`).
    public var reservedNames: [SyntaxProblem] = []
    /// Text the engine inserted before classifying the cell (the items' text has it): the
    /// interrupt checks at the top of loop bodies, `@usableFromInline` on types and
    /// overridable members.
    public var editInsertions: [Insertion]
    /// True when the cell declares an operator, a precedence group or an operator function
    /// (top-level, in a type or in an extension). Swift finds operator functions only in
    /// modules imported whole, so later cells import this cell's module whole.
    public var declaresOperators: Bool
    /// True when the cell has code an optimiser can speed up: a loop, or the body of a
    /// function, closure, initialiser, accessor or subscript (see ``CellMagic/optimize(_:)``).
    public var containsCode: Bool
    /// True when the cell declares code other cells call: a function, initialiser,
    /// accessor, subscript or deinitialiser body.
    public var declaresCallables: Bool

    /// Creates an analysis from its parts.
    public init(items: [CellItem], identifiers: Set<String>, references: Set<String>, hasTopLevelAwait: Bool,
                syntaxProblems: [SyntaxProblem], editInsertions: [Insertion] = [], declaresOperators: Bool = false,
                containsCode: Bool = false, declaresCallables: Bool = false) {
        self.declaresCallables = declaresCallables
        self.editInsertions = editInsertions
        self.declaresOperators = declaresOperators
        self.containsCode = containsCode
        self.items = items
        self.identifiers = identifiers
        self.references = references
        self.definedNames = Set(items.flatMap(\.definedNames))
        self.hasTopLevelAwait = hasTopLevelAwait
        self.syntaxProblems = syntaxProblems
    }

    /// Text the engine inserted into the cell's code, to map diagnostic columns back.
    public var insertions: [Insertion] {
        editInsertions + items.flatMap { item -> [Insertion] in
            if case .moduleWideDeclaration(let snippet) = item { return snippet.insertions }
            return []
        }
    }

    /// True when the cell holds only comments and whitespace.
    public var isEmpty: Bool { items.isEmpty && syntaxProblems.isEmpty && reservedNames.isEmpty }
}

/// Whether a piece of code is ready to run, for `is_complete_request`.
public enum Completeness: Sendable, Equatable {
    case complete
    /// More input is expected; `indent` is the suggested indentation of the next line.
    case incomplete(indent: String)
    case invalid
    /// The parser could not judge it (it is not running, or the code is pathological).
    case unknown
}
