import CellSource
import JSONCore
import SystemSupport

// The cell parser's analysis as JSON, for ``ParserResponse``. Every record has a `json`
// property and an `init(json:)` that reads what it wrote; a member missing or of the wrong
// kind throws ``FramingError/unknownMessage(_:)`` naming it.

extension CellAnalysis {
    /// The analysis as a JSON object.
    public var json: JSONValue {
        ["items": .array(items.map(\.json)), "identifiers": identifiers.json, "references": references.json,
         "defined_names": definedNames.json, "has_top_level_await": .bool(hasTopLevelAwait),
         "syntax_problems": .array(syntaxProblems.map(\.json)), "reserved_names": .array(reservedNames.map(\.json)),
         "edit_insertions": .array(editInsertions.map(\.json)), "declares_operators": .bool(declaresOperators),
         "contains_code": .bool(containsCode), "declares_callables": .bool(declaresCallables)]
    }

    /// Reads an analysis from its JSON object.
    /// - Parameter json: the object ``json`` wrote.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(items: try json.array("items", CellItem.init(json:)),
                  identifiers: Set(try json.strings("identifiers")), references: Set(try json.strings("references")),
                  hasTopLevelAwait: try json.bool("has_top_level_await"),
                  syntaxProblems: try json.array("syntax_problems", SyntaxProblem.init(json:)),
                  editInsertions: try json.array("edit_insertions", Insertion.init(json:)),
                  declaresOperators: try json.bool("declares_operators"), containsCode: try json.bool("contains_code"),
                  declaresCallables: try json.bool("declares_callables"))
        definedNames = Set(try json.strings("defined_names"))
        reservedNames = try json.array("reserved_names", SyntaxProblem.init(json:))
    }
}

extension Completeness {
    /// The judgement as a JSON object.
    public var json: JSONValue {
        switch self {
        case .complete: ["status": "complete"]
        case .incomplete(let indent): ["status": "incomplete", "indent": .string(indent)]
        case .invalid: ["status": "invalid"]
        case .unknown: ["status": "unknown"]
        }
    }

    /// Reads a judgement from its JSON object.
    /// - Parameter json: the object ``json`` wrote.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        switch try json.string("status") {
        case "complete": self = .complete
        case "incomplete": self = .incomplete(indent: try json.string("indent"))
        case "invalid": self = .invalid
        case "unknown": self = .unknown
        case let other: throw .unknownMessage("a completeness of kind \(other)")
        }
    }
}

extension CellItem {
    /// The item as a JSON object, its case in `item`.
    public var json: JSONValue {
        switch self {
        case .declaration(let snippet, let names):
            ["item": "declaration", "snippet": snippet.json, "names": .array(names.map(\.json))]
        case .moduleWideDeclaration(let snippet): ["item": "module_wide_declaration", "snippet": snippet.json]
        case .binding(let binding): ["item": "binding", "binding": binding.json]
        case .localScope(let scope): ["item": "local_scope", "scope": scope.json]
        case .unsetBinding(let binding): ["item": "unset_binding", "binding": binding.json]
        case .statement(let snippet): ["item": "statement", "snippet": snippet.json]
        case .result(let snippet): ["item": "result", "snippet": snippet.json]
        case .import(let text): ["item": "import", "text": .string(text)]
        }
    }

    /// Reads an item from its JSON object.
    /// - Parameter json: the object ``json`` wrote.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        switch try json.string("item") {
        case "declaration":
            self = .declaration(try SourceSnippet(json: try json.member("snippet")), try json.array("names", DeclaredName.init(json:)))
        case "module_wide_declaration": self = .moduleWideDeclaration(try SourceSnippet(json: try json.member("snippet")))
        case "binding": self = .binding(try ModuleBinding(json: try json.member("binding")))
        case "local_scope": self = .localScope(try LocalScope(json: try json.member("scope")))
        case "unset_binding": self = .unsetBinding(try UnsetBinding(json: try json.member("binding")))
        case "statement": self = .statement(try SourceSnippet(json: try json.member("snippet")))
        case "result": self = .result(try SourceSnippet(json: try json.member("snippet")))
        case "import": self = .import(try json.string("text"))
        case let other: throw .unknownMessage("a cell item of kind \(other)")
        }
    }
}

extension SourcePosition {
    /// The position as a JSON object.
    public var json: JSONValue { ["line": .number(Double(line)), "column": .number(Double(column))] }

    /// Reads a position from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(line: try json.int("line"), column: try json.int("column"))
    }
}

extension SourceSnippet {
    /// The snippet as a JSON object.
    public var json: JSONValue {
        ["text": .string(text), "start": start.json, "insertions": .array(insertions.map(\.json))]
    }

    /// Reads a snippet from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(text: try json.string("text"), start: try SourcePosition(json: try json.member("start")),
                  insertions: try json.array("insertions", Insertion.init(json:)))
    }
}

extension Insertion {
    /// The insertion as a JSON object.
    public var json: JSONValue { ["position": position.json, "length": .number(Double(length))] }

    /// Reads an insertion from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(position: try SourcePosition(json: try json.member("position")), length: try json.int("length"))
    }
}

extension DeclaredName {
    /// The name as a JSON object.
    public var json: JSONValue {
        ["name": .string(name), "kind": .string(kind.rawValue), "signature": .string(signature), "inherited": inherited.json]
    }

    /// Reads a name from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        let kindName = try json.string("kind")
        guard let kind = DeclarationKind(rawValue: kindName) else { throw .unknownMessage("a declaration of kind \(kindName)") }
        self.init(name: try json.string("name"), kind: kind, signature: try json.string("signature"),
                  inherited: try json.strings("inherited"))
    }
}

extension ModuleBinding {
    /// The binding as a JSON object.
    public var json: JSONValue {
        ["snippet": snippet.json, "names": names.json, "annotation_offset": annotationOffset.map { .number(Double($0)) } ?? .null,
         "exports": .array(exports.map(\.json))]
    }

    /// Reads a binding from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(snippet: try SourceSnippet(json: try json.member("snippet")), names: try json.strings("names"),
                  annotationOffset: try json.optionalInt("annotation_offset"), exports: try json.array("exports", ScopeExport.init(json:)))
    }
}

extension LocalScope {
    /// The scope as a JSON object.
    public var json: JSONValue {
        ["statements": .array(statements.map(\.json)), "exports": .array(exports.map(\.json)), "is_async": .bool(isAsync)]
    }

    /// Reads a scope from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(statements: try json.array("statements", SourceSnippet.init(json:)),
                  exports: try json.array("exports", ScopeExport.init(json:)), isAsync: try json.bool("is_async"))
    }
}

extension ScopeExport {
    /// The export as a JSON object.
    public var json: JSONValue {
        ["name": .string(name), "introducer": .string(introducer), "type": type.map(JSONValue.string) ?? .null,
         "line": .number(Double(line)), "is_async_let": .bool(isAsyncLet)]
    }

    /// Reads an export from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(name: try json.string("name"), introducer: try json.string("introducer"), type: try json.optionalString("type"),
                  line: try json.int("line"), isAsyncLet: try json.bool("is_async_let"))
    }
}

extension UnsetBinding {
    /// The binding as a JSON object.
    public var json: JSONValue {
        ["name": .string(name), "type": .string(type), "is_constant": .bool(isConstant), "position": position.json]
    }

    /// Reads a binding from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(name: try json.string("name"), type: try json.string("type"), isConstant: try json.bool("is_constant"),
                  position: try SourcePosition(json: try json.member("position")))
    }
}

extension SyntaxProblem {
    /// The problem as a JSON object.
    public var json: JSONValue { ["message": .string(message), "position": position.json] }

    /// Reads a problem from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        self.init(message: try json.string("message"), position: try SourcePosition(json: try json.member("position")))
    }
}
