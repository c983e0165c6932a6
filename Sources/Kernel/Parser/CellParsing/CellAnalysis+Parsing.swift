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
    ///   - marksTypes: add `@usableFromInline` to the cell's types and overridable class
    ///     members (see ``OverrideVisibility``).
    public init(parsing written: String, bindingsAreLocal: Bool = false, marksTypes: Bool = true) {
        // One file's meaning first: top-level `#if` resolved, file-scope `private` and
        // `fileprivate` made internal (blanked: lines and columns do not move).
        var tree = Parser.parse(source: written)
        let blanked = TopLevelConditions.blankedRanges(in: tree) + FileScopeAccess.blankedRanges(in: tree)
        let source = SourceEdits.blank(blanked, in: written)
        if !blanked.isEmpty { tree = Parser.parse(source: source) }
        var converter = SourceLocationConverter(fileName: "cell", tree: tree)
        let reserved = ReservedNames.problems(in: tree, converter: converter)
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
        let marks = marksTypes ? OverrideVisibility(tree: tree, converter: converter) : OverrideVisibility()
        let code = CodeFinder(viewMode: .sourceAccurate)
        code.walk(tree)
        let cellTypes = Set(tree.statements.compactMap { item -> String? in
            guard case .decl(let decl) = item.item, let declared = DeclarationNames.declared(by: decl), declared.kind != .func else { return nil }
            return declared.name
        })
        let edits = checks.edits + marks.edits
        if problems.isEmpty, !edits.isEmpty {
            tree = Parser.parse(source: SourceEdits.apply(edits, to: source))
            converter = SourceLocationConverter(fileName: "cell", tree: tree)
        }
        var classifier = Classifier(converter: converter, bindingsAreLocal: bindingsAreLocal, cellTypes: cellTypes)
        let statements = Array(tree.statements)
        for (index, item) in statements.enumerated() {
            classifier.classify(item.item, isLast: index == statements.count - 1)
        }
        self.init(items: LocalScopes.group(classifier.items), identifiers: collector.identifiers,
                  references: collector.references, hasTopLevelAwait: classifier.hasTopLevelAwait,
                  syntaxProblems: problems, editInsertions: problems.isEmpty ? checks.insertions + marks.insertions : [],
                  declaresOperators: classifier.declaresOperators, containsCode: code.found,
                  declaresCallables: code.foundCallable)
        reservedNames = reserved
    }
}

/// Text inserted into a cell before it is classified (loop checks, attributes).
enum SourceEdits {
    /// The source with each text inserted at its UTF-8 offset.
    static func apply(_ edits: [(offset: Int, text: String)], to source: String) -> String {
        var bytes = Array(source.utf8)
        for edit in edits.sorted(by: { $0.offset > $1.offset }) where edit.offset <= bytes.count {
            bytes.insert(contentsOf: Array(edit.text.utf8), at: edit.offset)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Finds code worth optimising (a loop, a closure, a body that runs when called) and
/// callable declarations (the bodies other cells call).
private final class CodeFinder: SyntaxVisitor {
    var found = false
    var foundCallable = false

    private func find() -> SyntaxVisitorContinueKind {
        found = true
        return foundCallable ? .skipChildren : .visitChildren
    }

    private func findCallable(hasBody: Bool) -> SyntaxVisitorContinueKind {
        guard hasBody else { return .visitChildren }
        found = true
        foundCallable = true
        return .skipChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { find() }
    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { find() }
    override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind { find() }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { find() }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { findCallable(hasBody: node.body != nil) }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { findCallable(hasBody: node.body != nil) }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { findCallable(hasBody: true) }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { findCallable(hasBody: node.accessorBlock != nil) }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { findCallable(hasBody: node.body != nil) }
}

/// Collects identifiers, and the names used as values or types (not after a dot).
private final class NameCollector: SyntaxVisitor {
    var identifiers: Set<String> = []
    var references: Set<String> = []

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        switch token.tokenKind {
        case .identifier(let name): identifiers.insert(PlainName.of(name))
        case .binaryOperator(let name), .prefixOperator(let name), .postfixOperator(let name):
            identifiers.insert(name)
        default: break
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let isMember = node.parent?.as(MemberAccessExprSyntax.self)?.declName.id == node.id
        if !isMember { references.insert(PlainName.of(node.baseName.text)) }
        return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        references.insert(PlainName.of(node.name.text))
        return .visitChildren
    }
}
