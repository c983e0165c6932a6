@_implementationOnly import SwiftParser
@_implementationOnly import SwiftParserDiagnostics
@_implementationOnly import SwiftSyntax
import CellSource

extension CellAnalysis {
    /// Parses and classifies a cell with SwiftParser.
    ///
    /// Runs in the cell parser process: a pathological cell can exhaust the stack or take
    /// exponential time here without harming the kernel.
    /// - Parameters:
    ///   - source: the cell's text.
    ///   - bindingsAreLocal: keep `let`/`var` as statements of the cell's body instead of
    ///     notebook variables (for a body that a timing magic runs many times).
    public init(parsing source: String, bindingsAreLocal: Bool = false) {
        var tree = Parser.parse(source: source)
        var converter = SourceLocationConverter(fileName: "cell", tree: tree)
        let problems = ParseDiagnosticsGenerator.diagnostics(for: tree)
            .filter { $0.diagMessage.severity == .error }
            .map { diagnostic in
                let location = diagnostic.location(converter: converter)
                return SyntaxProblem(message: diagnostic.message,
                                     position: SourcePosition(line: location.line, column: location.column))
            }
        // Names come from the text as written; the code to compile has the loop checks.
        let collector = NameCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        let checks = LoopChecks(tree: tree, converter: converter)
        if problems.isEmpty, !checks.edits.isEmpty {
            tree = Parser.parse(source: checks.apply(to: source))
            converter = SourceLocationConverter(fileName: "cell", tree: tree)
        }
        var classifier = Classifier(converter: converter, bindingsAreLocal: bindingsAreLocal)
        let statements = Array(tree.statements)
        for (index, item) in statements.enumerated() {
            classifier.classify(item.item, isLast: index == statements.count - 1)
        }
        self.init(items: classifier.items, identifiers: collector.identifiers, references: collector.references,
                  hasTopLevelAwait: classifier.hasTopLevelAwait, syntaxProblems: problems,
                  loopCheckInsertions: problems.isEmpty ? checks.insertions : [])
    }
}

/// Sorts top-level items into declarations, bindings, statements and the result.
private struct Classifier {
    let converter: SourceLocationConverter
    let bindingsAreLocal: Bool
    var items: [CellItem] = []
    var hasTopLevelAwait = false

    func snippet(_ node: some SyntaxProtocol) -> SourceSnippet {
        let location = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SourceSnippet(text: node.trimmedDescription,
                             start: SourcePosition(line: location.line, column: location.column))
    }

    mutating func classify(_ item: CodeBlockItemSyntax.Item, isLast: Bool) {
        switch item {
        case .decl(let decl):
            classify(decl)
        case .stmt(let statement):
            if let expression = statement.as(ExpressionStmtSyntax.self) {
                classify(expression: expression.expression, node: Syntax(statement), isLast: isLast)
            } else {
                if containsTopLevelAwait(statement) { hasTopLevelAwait = true }
                items.append(.statement(snippet(statement)))
            }
        case .expr(let expression):
            classify(expression: expression, node: Syntax(expression), isLast: isLast)
        @unknown default:
            items.append(.statement(snippet(item)))
        }
    }

    mutating func classify(expression: ExprSyntax, node: Syntax, isLast: Bool) {
        if containsTopLevelAwait(node) { hasTopLevelAwait = true }
        let showsValue = isLast && !isAssignment(expression)
            && !expression.is(IfExprSyntax.self) && !expression.is(SwitchExprSyntax.self)
        items.append(showsValue ? .result(snippet(node)) : .statement(snippet(node)))
    }

    mutating func classify(_ decl: DeclSyntax) {
        if let variable = decl.as(VariableDeclSyntax.self) {
            classify(variable)
        } else if let importDecl = decl.as(ImportDeclSyntax.self) {
            items.append(.import(importDecl.trimmedDescription))
        } else if let named = namedDeclaration(decl) {
            items.append(.declaration(snippet(decl), names: [named.name], kind: named.kind))
        } else {
            if let extensionDecl = decl.as(ExtensionDeclSyntax.self), extensionDecl.inheritanceClause != nil {
                items.append(.moduleWideDeclaration(publishingWitnesses(of: extensionDecl), importsWholeModule: false))
            } else {
                let isOperator = decl.is(OperatorDeclSyntax.self) || decl.is(PrecedenceGroupDeclSyntax.self)
                items.append(.moduleWideDeclaration(snippet(decl), importsWholeModule: isOperator))
            }
        }
    }

    /// An extension that adds a conformance to a type from an earlier cell. Through the
    /// testable import that type looks public to the compiler, which then demands public
    /// witnesses; members written without an access level are made `public` (the insertions
    /// are recorded so diagnostic columns still match the user's text).
    func publishingWitnesses(of extensionDecl: ExtensionDeclSyntax) -> SourceSnippet {
        var result = snippet(extensionDecl)
        let start = extensionDecl.positionAfterSkippingLeadingTrivia.utf8Offset
        var bytes = Array(result.text.utf8)
        var offsets: [Int] = []
        for member in extensionDecl.memberBlock.members {
            let decl = member.decl
            guard let modified = decl.asProtocol(WithModifiersSyntax.self) else { continue }
            let accessLevels: Set<String> = ["public", "open", "internal", "fileprivate", "private", "package"]
            if modified.modifiers.contains(where: { accessLevels.contains($0.name.text) }) { continue }
            let keyword: TokenSyntax?
            if let first = modified.modifiers.first {
                keyword = first.firstToken(viewMode: .sourceAccurate)
            } else if let attributed = decl.asProtocol(WithAttributesSyntax.self), let last = attributed.attributes.lastToken(viewMode: .sourceAccurate) {
                keyword = last.nextToken(viewMode: .sourceAccurate)
            } else {
                keyword = decl.firstToken(viewMode: .sourceAccurate)
            }
            guard let keyword else { continue }
            offsets.append(keyword.positionAfterSkippingLeadingTrivia.utf8Offset - start)
            let location = converter.location(for: keyword.positionAfterSkippingLeadingTrivia)
            result.insertions.append(Insertion(position: SourcePosition(line: location.line, column: location.column), length: 7))
        }
        for offset in offsets.sorted(by: >) where offset >= 0 && offset <= bytes.count {
            bytes.insert(contentsOf: Array("public ".utf8), at: offset)
        }
        result.text = String(decoding: bytes, as: UTF8.self)
        return result
    }

    func namedDeclaration(_ decl: DeclSyntax) -> (name: String, kind: DeclarationKind)? {
        if let d = decl.as(StructDeclSyntax.self) { return (d.name.text, .struct) }
        if let d = decl.as(ClassDeclSyntax.self) { return (d.name.text, .class) }
        if let d = decl.as(EnumDeclSyntax.self) { return (d.name.text, .enum) }
        if let d = decl.as(ProtocolDeclSyntax.self) { return (d.name.text, .protocol) }
        if let d = decl.as(TypeAliasDeclSyntax.self) { return (d.name.text, .typealias) }
        if let d = decl.as(FunctionDeclSyntax.self) { return (d.name.text, .func) }
        return nil
    }

    mutating func classify(_ variable: VariableDeclSyntax) {
        let bindings = Array(variable.bindings)
        let computed = bindings.contains { $0.accessorBlock != nil }
        let names = bindings.flatMap { boundNames(in: $0.pattern) }
        if computed {
            items.append(.declaration(snippet(variable), names: names, kind: .var))
            return
        }
        if names.isEmpty || bindingsAreLocal {
            // `let _ = f()`: nothing to keep, so it is just a statement.
            if containsTopLevelAwait(variable) { hasTopLevelAwait = true }
            items.append(.statement(snippet(variable)))
            return
        }
        let needsEvaluation = bindings.contains { binding in
            binding.initializer.map { needsRuntimeEvaluation($0.value) } ?? false
        }
        guard needsEvaluation else {
            items.append(.plainBinding(snippet(variable), names: names))
            return
        }
        var introducer = variable.bindingSpecifier.text
        let prefix = (variable.attributes.trimmedDescription + " " + variable.modifiers.trimmedDescription)
            .trimmingCharacters(in: .whitespaces)
        if !prefix.isEmpty { introducer = prefix + " " + introducer }
        for binding in bindings {
            guard let initializer = binding.initializer else {
                items.append(.plainBinding(snippet(variable), names: boundNames(in: binding.pattern)))
                continue
            }
            items.append(.evaluatedBinding(EvaluatedBinding(
                introducer: introducer,
                pattern: binding.pattern.trimmedDescription,
                type: binding.typeAnnotation?.type.trimmedDescription,
                value: snippet(initializer.value),
                isAsync: containsTopLevelAwait(initializer.value),
                names: boundNames(in: binding.pattern))))
        }
    }

    func boundNames(in pattern: PatternSyntax) -> [String] {
        pattern.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier(let name) = token.tokenKind,
                  token.parent?.is(IdentifierPatternSyntax.self) == true else { return nil }
            return name
        }
    }

    /// `try` (not `try?`/`try!`) or `await` outside any nested closure or function.
    func needsRuntimeEvaluation(_ expression: ExprSyntax) -> Bool {
        containsTopLevelAwait(expression) || expression.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.tokenKind == .keyword(.try), let tryExpr = token.parent?.as(TryExprSyntax.self) else { return false }
            return tryExpr.questionOrExclamationMark == nil && !isInsideNestedBody(token)
        }
    }

    func containsTopLevelAwait(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .keyword(.await) && !isInsideNestedBody(token)
        }
    }

    func isInsideNestedBody(_ token: TokenSyntax) -> Bool {
        var node = token.parent
        while let current = node {
            if current.is(ClosureExprSyntax.self) || current.is(FunctionDeclSyntax.self)
                || current.is(AccessorBlockSyntax.self) || current.is(InitializerDeclSyntax.self) {
                return true
            }
            node = current.parent
        }
        return false
    }

    func isAssignment(_ expression: ExprSyntax) -> Bool {
        if expression.is(AssignmentExprSyntax.self) { return true }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            return infix.operator.is(AssignmentExprSyntax.self) || isCompoundAssignment(infix.operator)
        }
        guard let sequence = expression.as(SequenceExprSyntax.self) else { return false }
        return sequence.elements.contains { $0.is(AssignmentExprSyntax.self) || isCompoundAssignment($0) }
    }

    func isCompoundAssignment(_ expression: ExprSyntax) -> Bool {
        guard let op = expression.as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
        return op.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(op)
    }
}

/// Collects identifiers, and the names used as values or types (not after a dot).
private final class NameCollector: SyntaxVisitor {
    var identifiers: Set<String> = []
    var references: Set<String> = []

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        switch token.tokenKind {
        case .identifier(let name): identifiers.insert(name)
        case .binaryOperator(let name), .prefixOperator(let name), .postfixOperator(let name):
            identifiers.insert(name)
        default: break
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let isMember = node.parent?.as(MemberAccessExprSyntax.self)?.declName.id == node.id
        if !isMember { references.insert(node.baseName.text) }
        return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        references.insert(node.name.text)
        return .visitChildren
    }
}
