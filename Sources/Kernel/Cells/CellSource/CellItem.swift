/// A place in a cell's source, 1-based, columns in UTF-8 bytes as the compiler counts them.
public struct SourcePosition: Sendable, Equatable {
    public var line: Int
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A slice of a cell's source text with where it starts.
public struct SourceSnippet: Sendable, Equatable {
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
public struct Insertion: Sendable, Equatable {
    public var position: SourcePosition
    public var length: Int

    /// Creates an insertion record.
    public init(position: SourcePosition, length: Int) {
        self.position = position
        self.length = length
    }
}

/// What kind of declaration a name has; later cells import it by that kind
/// (`@testable import struct Cell3.Point`).
public enum DeclarationKind: String, Sendable {
    case `struct`, `class`, actor, `enum`, `protocol`, `typealias`, `func`, `var`

    /// The keyword of a scoped import of this kind (Swift imports an actor as a class).
    public var importKeyword: String { self == .actor ? "class" : rawValue }

    /// True for nominal types (their members need the declaring cell's testable import).
    public var isType: Bool { [.struct, .class, .actor, .enum, .protocol].contains(self) }
}

/// A name a top-level declaration makes visible to later cells.
public struct DeclaredName: Sendable, Equatable {
    public var name: String
    public var kind: DeclarationKind
    /// What a later declaration must match to replace this one. For a function: its name,
    /// argument labels and parameter types (`greet(person:String,twice:Bool)`), so a new
    /// signature adds an overload; for any other kind the name alone, so any later
    /// declaration of the name replaces it.
    public var signature: String
    /// For a type: the types it inherits from or conforms to, by name (`["Shape"]`). Their
    /// cells are loaded with the type, so overrides and inherited members resolve.
    public var inherited: [String]

    /// Creates a declared name.
    public init(name: String, kind: DeclarationKind, signature: String? = nil, inherited: [String] = []) {
        self.name = name
        self.kind = kind
        self.signature = signature ?? name
        self.inherited = inherited
    }
}

/// A `let`/`var` declaration kept at module scope, its names becoming notebook variables.
public struct ModuleBinding: Sendable, Equatable {
    public var snippet: SourceSnippet
    /// The names it binds, in order.
    public var names: [String]
    /// For a declaration of one pattern without a type: the UTF-8 offset in the snippet's
    /// text right after the pattern, where a type can be written (`let s = makeShape()`
    /// needs `: some Shape` there, see ``CellItem``).
    public var annotationOffset: Int?
    /// Its names as a ``LocalScope`` would export them, for a binding that must become one
    /// (a tuple pattern whose type involves an opaque `some P`).
    public var exports: [ScopeExport]

    /// Creates a binding.
    public init(snippet: SourceSnippet, names: [String], annotationOffset: Int? = nil, exports: [ScopeExport] = []) {
        self.snippet = snippet
        self.names = names
        self.annotationOffset = annotationOffset
        self.exports = exports
    }
}

/// Top-level statements that must share one local scope, as all of `main.swift` does.
///
/// A binding whose value needs `try` or `await`, a `guard let`/`guard case` whose names
/// later code uses, a constant declared without a value and given one by the statements
/// after it, `async let`: Swift allows these only in a local scope. The kernel runs the
/// statements together in a closure at their place in the cell, and every name they bind at
/// their top level becomes a notebook variable of the same name holding the value it had at
/// the scope's end.
public struct LocalScope: Sendable, Equatable {
    /// The statements, in order (bindings among them are local to the scope).
    public var statements: [SourceSnippet]
    /// The names bound at the scope's top level, in order.
    public var exports: [ScopeExport]
    /// True when a statement uses `await` or `async let`.
    public var isAsync: Bool

    /// The cell line of its first statement.
    public var firstLine: Int { statements.first?.start.line ?? 1 }

    /// Creates a scope.
    public init(statements: [SourceSnippet], exports: [ScopeExport], isAsync: Bool) {
        self.statements = statements
        self.exports = exports
        self.isAsync = isAsync
    }
}

/// A name a ``LocalScope`` binds, which becomes a notebook variable.
public struct ScopeExport: Sendable, Equatable {
    public var name: String
    /// `let` or `var`, after any attributes and modifiers written before it.
    public var introducer: String
    /// Its type, when written for this name alone (`let h: Int`).
    public var type: String?
    /// The line it is bound on, in the cell.
    public var line: Int
    /// True for `async let` (its value is awaited at the scope's end).
    public var isAsyncLet: Bool

    /// Creates an export.
    public init(name: String, introducer: String, type: String?, line: Int, isAsyncLet: Bool = false) {
        self.name = name
        self.introducer = introducer
        self.type = type
        self.line = line
        self.isAsyncLet = isAsyncLet
    }
}

/// A `let`/`var` declared with a type and no value, which its cell does not assign: a
/// notebook variable that a later cell gives its value (`var names: [String]` here,
/// `names = ["a"]` there). Reading it first stops the cell with a message that says so;
/// a constant can be given its value once.
public struct UnsetBinding: Sendable, Equatable {
    public var name: String
    public var type: String
    public var isConstant: Bool
    /// Where it is declared.
    public var position: SourcePosition

    /// Creates an unset binding.
    public init(name: String, type: String, isConstant: Bool, position: SourcePosition) {
        self.name = name
        self.type = type
        self.isConstant = isConstant
        self.position = position
    }
}

/// One top-level item of a cell, classified for code generation.
public enum CellItem: Sendable, Equatable {
    /// A declaration placed at module scope as written (type, function, computed variable,
    /// typealias), with the names it declares.
    case declaration(SourceSnippet, [DeclaredName])
    /// A declaration whose effects reach beyond a name (extension, operator, precedence
    /// group): later cells load its module.
    case moduleWideDeclaration(SourceSnippet)
    /// `let`/`var` bindings whose values need neither `try` nor `await`: module-scope
    /// globals, initialised in order by the cell's entry point.
    case binding(ModuleBinding)
    /// Statements that share a local scope; their bindings become notebook variables.
    case localScope(LocalScope)
    /// A variable declared without a value that a later cell sets.
    case unsetBinding(UnsetBinding)
    /// A statement run in order in the cell's entry point.
    case statement(SourceSnippet)
    /// The cell's last expression, whose value is shown as the cell's result.
    case result(SourceSnippet)
    /// An `import` declaration; it stays in force for every later cell.
    case `import`(String)
}

extension CellItem {
    /// The names this item makes available to later cells, in the order their values are
    /// made (the order the entry point counts them in).
    public var definedNames: [String] {
        switch self {
        case .declaration(_, let names): names.map(\.name)
        case .binding(let binding): binding.names
        case .localScope(let scope): scope.exports.map(\.name)
        case .unsetBinding(let binding): [binding.name]
        default: []
        }
    }

    /// True for the cell's shown last expression.
    public var isResult: Bool {
        if case .result = self { return true }
        return false
    }

    /// The cell line the item starts on (nil for an import).
    public var firstLine: Int? {
        switch self {
        case .declaration(let snippet, _), .moduleWideDeclaration(let snippet), .statement(let snippet), .result(let snippet):
            snippet.start.line
        case .binding(let binding): binding.snippet.start.line
        case .localScope(let scope): scope.firstLine
        case .unsetBinding(let binding): binding.position.line
        case .import: nil
        }
    }

    /// True for items whose names are values made when the cell runs (not declarations).
    public var bindsValues: Bool {
        switch self {
        case .binding, .localScope, .unsetBinding: true
        default: false
        }
    }
}
