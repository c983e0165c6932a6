@_implementationOnly import SwiftSyntax
import CellSource

/// One top-level item of a cell, classified, before ``LocalScopes`` groups the items that
/// must share a local scope.
struct TopLevelItem {
    /// Why an item needs a local scope.
    enum Scoping: Equatable {
        /// It does not (a declaration, a plain binding, a statement).
        case none
        /// It needs one of its own: a binding whose value needs `try` or `await`, or a
        /// `guard` whose names later code uses.
        case own
        /// It declares `names` without a value, with others or as a tuple: the scope lasts
        /// until their last assignment.
        case deferred(names: Set<String>)
        /// `async let`: the scope lasts until the last statement that uses one of its names.
        case asyncLet(names: Set<String>)
    }

    /// How the item is emitted outside any local scope; nil for items that only exist in one.
    var item: CellItem?
    /// The item as a statement of a local scope; nil for declarations, which stay at
    /// module scope wherever they are written.
    var localText: SourceSnippet?
    /// The names it binds at the cell's top level, in order.
    var exports: [ScopeExport] = []
    var scoping = Scoping.none
    /// Identifiers it mentions (to find the last use of an `async let`).
    var identifiers: Set<String> = []
    /// Names it assigns with `=` (to find where a deferred constant gets its value).
    var assigned: Set<String> = []
    /// True for a `defer` statement (it must run at the end of the cell, not of a scope).
    var isDefer = false
    /// True when it uses `await` outside a closure or function.
    var awaits = false
    /// For a declaration of typed names without values: the variables it becomes.
    var unset: [UnsetBinding] = []
}

/// Sorts top-level items into declarations, bindings, statements and the result.
struct Classifier {
    let converter: SourceLocationConverter
    let bindingsAreLocal: Bool
    /// The types and typealiases this cell declares at its top level.
    var cellTypes: Set<String> = []
    var items: [TopLevelItem] = []
    var hasTopLevelAwait = false
    var declaresOperators = false

    func snippet(_ node: some SyntaxProtocol) -> SourceSnippet {
        SourceSnippet(text: node.trimmedDescription, start: position(node.positionAfterSkippingLeadingTrivia))
    }

    func position(_ position: AbsolutePosition) -> SourcePosition {
        let location = converter.location(for: position)
        return SourcePosition(line: location.line, column: location.column)
    }

    mutating func classify(_ item: CodeBlockItemSyntax.Item, isLast: Bool) {
        switch item {
        case .decl(let decl):
            classify(decl)
        case .stmt(let statement):
            if let expression = statement.as(ExpressionStmtSyntax.self) {
                classify(expression: expression.expression, node: Syntax(statement), isLast: isLast)
            } else if let guardStatement = statement.as(GuardStmtSyntax.self) {
                classify(guardStatement)
            } else {
                var top = statementItem(statement)
                top.isDefer = statement.is(DeferStmtSyntax.self)
                items.append(top)
            }
        case .expr(let expression):
            classify(expression: expression, node: Syntax(expression), isLast: isLast)
        @unknown default:
            items.append(statementItem(item))
        }
    }

    /// A plain statement, run in order in the entry point (or in a local scope).
    mutating func statementItem(_ node: some SyntaxProtocol) -> TopLevelItem {
        let text = snippet(node)
        let awaits = Self.containsTopLevelAwait(node)
        if awaits { hasTopLevelAwait = true }
        return TopLevelItem(item: .statement(text), localText: text, identifiers: Self.identifiers(in: node),
                            assigned: Self.assignedNames(in: node), awaits: awaits)
    }

    mutating func classify(expression: ExprSyntax, node: Syntax, isLast: Bool) {
        var top = statementItem(node)
        let showsValue = isLast && !Self.isAssignment(expression)
            && !expression.is(IfExprSyntax.self) && !expression.is(SwitchExprSyntax.self)
        if showsValue { top.item = .result(snippet(node)) }
        items.append(top)
    }

    /// A `guard` binds its names for the rest of `main.swift`; here they become notebook
    /// variables through a local scope. A `guard` that binds nothing is a plain statement.
    mutating func classify(_ guardStatement: GuardStmtSyntax) {
        var top = statementItem(guardStatement)
        guard !bindingsAreLocal else { return items.append(top) }
        top.exports = guardStatement.conditions.flatMap { condition -> [ScopeExport] in
            switch condition.condition {
            case .optionalBinding(let binding):
                let type = binding.typeAnnotation?.type.trimmedDescription
                return Self.boundNames(in: binding.pattern).map {
                    export($0, introducer: binding.bindingSpecifier.text, type: type, at: binding)
                }
            case .matchingPattern(let match):
                return Self.boundNamesWithSpecifiers(in: match.pattern).map {
                    export($0.name, introducer: $0.specifier, type: nil, at: match)
                }
            default:
                return []
            }
        }
        if !top.exports.isEmpty { top.scoping = .own }
        items.append(top)
    }

    func export(_ name: String, introducer: String, type: String?, at node: some SyntaxProtocol, isAsyncLet: Bool = false) -> ScopeExport {
        ScopeExport(name: name, introducer: introducer, type: type,
                    line: position(node.positionAfterSkippingLeadingTrivia).line, isAsyncLet: isAsyncLet)
    }

    mutating func classify(_ decl: DeclSyntax) {
        if DeclarationNames.declaresOperators(decl) { declaresOperators = true }
        if let variable = decl.as(VariableDeclSyntax.self) {
            classify(variable)
        } else if let importDecl = decl.as(ImportDeclSyntax.self) {
            items.append(TopLevelItem(item: .import(importDecl.trimmedDescription)))
        } else if let named = DeclarationNames.declared(by: decl) {
            items.append(TopLevelItem(item: .declaration(snippet(decl), [named])))
        } else if let extensionDecl = decl.as(ExtensionDeclSyntax.self), let clause = extensionDecl.inheritanceClause,
                  !cellTypes.contains(extensionDecl.extendedType.trimmedDescription),
                  !clause.inheritedTypes.contains(where: { cellTypes.contains($0.type.trimmedDescription) }) {
            items.append(TopLevelItem(item: .moduleWideDeclaration(publishingWitnesses(of: extensionDecl))))
        } else {
            items.append(TopLevelItem(item: .moduleWideDeclaration(snippet(decl))))
        }
    }

    mutating func classify(_ variable: VariableDeclSyntax) {
        let bindings = Array(variable.bindings)
        let names = bindings.flatMap { Self.boundNames(in: $0.pattern) }
        if bindings.contains(where: { $0.accessorBlock != nil }) {
            let declared = names.map { DeclaredName(name: $0, kind: .var) }
            items.append(TopLevelItem(item: .declaration(snippet(variable), declared)))
            return
        }
        if names.isEmpty || bindingsAreLocal {
            // `let _ = f()`: nothing to keep, so it is just a statement.
            items.append(statementItem(variable))
            return
        }
        var top = statementItem(variable)
        let modifiers = (variable.attributes.trimmedDescription + " " + variable.modifiers
            .filter { $0.name.tokenKind != .keyword(.async) }.trimmedDescription).trimmingCharacters(in: .whitespaces)
        let introducer = modifiers.isEmpty ? variable.bindingSpecifier.text : modifiers + " " + variable.bindingSpecifier.text
        let isAsyncLet = variable.modifiers.contains { $0.name.tokenKind == .keyword(.async) }
        top.exports = bindings.flatMap { binding in
            let names = Self.boundNames(in: binding.pattern)
            let type = binding.pattern.is(IdentifierPatternSyntax.self) && binding.initializer == nil
                ? Self.writtenType(of: binding, in: bindings)
                : binding.pattern.is(IdentifierPatternSyntax.self) ? binding.typeAnnotation?.type.trimmedDescription : nil
            return names.map { export($0, introducer: introducer, type: type, at: binding, isAsyncLet: isAsyncLet) }
        }
        // `var x: T?` without a value starts as nil, as in Swift; only others wait for one.
        let isVariable = variable.bindingSpecifier.tokenKind == .keyword(.var)
        let withoutValue = bindings.filter { binding in
            binding.initializer == nil && !(isVariable && Self.isOptional(Self.writtenTypeSyntax(of: binding, in: bindings)))
        }
        if isAsyncLet {
            hasTopLevelAwait = true
            top.scoping = .asyncLet(names: Set(names))
        } else if !withoutValue.isEmpty {
            // Declared without a value: typed storage that the assignments set where they
            // happen (in this cell or a later one). Only a declaration mixing names with and
            // without values, or a tuple pattern, needs a scope up to its last assignment.
            let unset = withoutValue.compactMap { binding -> UnsetBinding? in
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self).map({ PlainName.of($0.identifier.text) }),
                      let type = Self.writtenType(of: binding, in: bindings) else { return nil }
                return UnsetBinding(name: name, type: type, isConstant: variable.bindingSpecifier.tokenKind == .keyword(.let),
                                    position: position(binding.positionAfterSkippingLeadingTrivia))
            }
            if unset.count == bindings.count {
                top.item = nil
                top.unset = unset
            } else {
                top.scoping = .deferred(names: Set(withoutValue.flatMap { Self.boundNames(in: $0.pattern) }))
            }
        } else if bindings.contains(where: { $0.initializer.map { Self.needsRuntimeEvaluation($0.value) } ?? false }) {
            top.scoping = .own
        } else {
            // A single pattern without a type can be given one (an opaque type, see CellEngine).
            let single = bindings.count == 1 && bindings[0].typeAnnotation == nil
                && bindings[0].pattern.is(IdentifierPatternSyntax.self) ? bindings[0] : nil
            let offset = single.map { $0.pattern.endPositionBeforeTrailingTrivia.utf8Offset - variable.positionAfterSkippingLeadingTrivia.utf8Offset }
            top.item = .binding(ModuleBinding(snippet: snippet(variable), names: names, annotationOffset: offset, exports: top.exports))
        }
        items.append(top)
    }

    /// The type written for a name declared without a value: its own, or, as Swift reads
    /// `var red, green, blue: Double`, that of the next name in the declaration that has one.
    static func writtenTypeSyntax(of binding: PatternBindingSyntax, in bindings: [PatternBindingSyntax]) -> TypeSyntax? {
        if let type = binding.typeAnnotation?.type { return type }
        guard binding.initializer == nil, let index = bindings.firstIndex(where: { $0.id == binding.id }) else { return nil }
        for later in bindings[(index + 1)...] {
            if let type = later.typeAnnotation?.type { return type }
            if later.initializer != nil { return nil }
        }
        return nil
    }

    static func writtenType(of binding: PatternBindingSyntax, in bindings: [PatternBindingSyntax]) -> String? {
        writtenTypeSyntax(of: binding, in: bindings)?.trimmedDescription
    }
}
