/// A place in a cell's source, 1-based, columns in UTF-8 bytes as the compiler counts them.
public struct SourcePosition: Sendable, Equatable, Codable {
    public var line: Int
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A slice of a cell's source text with where it starts.
public struct SourceSnippet: Sendable, Equatable, Codable {
    public var text: String
    public var start: SourcePosition
    /// Text the engine inserted into `text` (positions in the user's cell), so that
    /// diagnostic columns can be mapped back.
    public var insertions: [Insertion] = []

    /// Creates a snippet.
    public init(text: String, start: SourcePosition, insertions: [Insertion] = []) {
        self.text = text
        self.start = start
        self.insertions = insertions
    }
}

/// Text inserted by the engine at a place in the user's cell.
public struct Insertion: Sendable, Equatable, Codable {
    public var position: SourcePosition
    public var length: Int

    /// Creates an insertion record.
    public init(position: SourcePosition, length: Int) {
        self.position = position
        self.length = length
    }
}

/// How a name declared in a cell is brought into later cells (`import <kind> CellN.name`).
public enum DeclarationKind: String, Sendable, Codable {
    case `struct`, `class`, `enum`, `protocol`, `typealias`, `func`, `var`
}

/// One top-level item of a cell, classified for code generation.
public enum CellItem: Sendable, Equatable, Codable {
    /// A declaration placed at module scope as written (type, function, extension, ...).
    case declaration(SourceSnippet, names: [String], kind: DeclarationKind?)
    /// A declaration whose effects reach beyond its name (extension, operator,
    /// precedence group, actor): later cells load its module. Operators and precedence
    /// groups cannot be imported by name, so their modules are imported whole.
    case moduleWideDeclaration(SourceSnippet, importsWholeModule: Bool)
    /// `let`/`var` bindings whose initial values need neither `try` nor `await`:
    /// module-scope globals, initialised in order by the cell's entry point.
    case plainBinding(SourceSnippet, names: [String])
    /// One binding whose initial value needs `try` or `await`: evaluated through the
    /// runtime so a thrown error is reported instead of trapping.
    case evaluatedBinding(EvaluatedBinding)
    /// A statement run in order in the cell's entry point.
    case statement(SourceSnippet)
    /// The cell's last expression, whose value is shown as the cell's result.
    case result(SourceSnippet)
    /// An `import` declaration; it stays in force for every later cell.
    case `import`(String)
}

extension CellItem {
    /// The names this item makes available to later cells.
    public var definedNames: [String] {
        switch self {
        case .declaration(_, let names, _): names
        case .plainBinding(_, let names): names
        case .evaluatedBinding(let binding): binding.names
        default: []
        }
    }

    /// True for the cell's shown last expression.
    public var isResult: Bool {
        if case .result = self { return true }
        return false
    }
}

/// The parts of a binding such as `let (a, b): (Int, Int) = try load()`.
public struct EvaluatedBinding: Sendable, Equatable, Codable {
    /// `let` or `var`, with any modifiers before it.
    public var introducer: String
    /// The pattern, for example `(a, b)`.
    public var pattern: String
    /// The type annotation without the colon, if written.
    public var type: String?
    /// The initial value expression.
    public var value: SourceSnippet
    /// True when the value needs `await`.
    public var isAsync: Bool
    /// The names the pattern binds.
    public var names: [String]

    /// Creates a binding description.
    public init(introducer: String, pattern: String, type: String?, value: SourceSnippet, isAsync: Bool, names: [String]) {
        self.introducer = introducer
        self.pattern = pattern
        self.type = type
        self.value = value
        self.isAsync = isAsync
        self.names = names
    }
}
