import BenchbookSettings
@_implementationOnly import SwiftSyntax
import CellSource
import GeneratedNames
#if canImport(Glibc)
import Glibc
#endif

/// Makes the loops a cell writes stop on an interrupt.
///
/// Every `while` and `repeat` body, and every `for` body that holds another loop or runs
/// over an unbounded range (`for i in 0...`), gets a check of the interrupt flag as its
/// first statement, on the same line as its `{` (line numbers do not move; the columns
/// after it are recorded as ``Insertion``s). An innermost `for` over a bounded sequence gets
/// none: it ends on its own, and a check in it (a load and a branch per iteration) keeps the
/// optimiser from vectorising it. An interrupt that no check sees (such a loop running long,
/// or C code) stops the cell by replacing its host with the snapshot taken before the cell,
/// after the supervisor's grace period. Where an error can propagate (the cell's own
/// statements, and functions declared plainly `throws`) the check throws the library's
/// `InterruptedError`, so the cell stops like a library loop and keeps every value. In code
/// that cannot throw (closures, whose throwing is inferred; non-throwing functions,
/// accessors, `defer`) the check stops the cell with a trap, and the kernel restores the
/// host's snapshot from before the cell.
struct LoopChecks {
    /// Where to insert what, in UTF-8 offsets of the original text.
    private(set) var edits: [(offset: Int, text: String)] = []
    private(set) var insertions: [Insertion] = []

    /// Set `BENCHBOOK_LOOP_CHECKS=0` in the kernel's environment to compile loops as
    /// written (to measure what the checks cost; interrupting such a loop restarts the host).
    static let enabled = KernelSettings.current.loopChecks

    init(tree: SourceFileSyntax, converter: SourceLocationConverter) {
        guard Self.enabled else { return }
        let finder = LoopFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        for body in finder.bodies {
            let text = Self.canThrow(at: Syntax(body)) ? RuntimeNames.throwingInterruptCheck : RuntimeNames.trappingInterruptCheck
            let position = body.leftBrace.endPositionBeforeTrailingTrivia
            let location = converter.location(for: position)
            edits.append((position.utf8Offset, text))
            insertions.append(Insertion(position: SourcePosition(line: location.line, column: location.column),
                                        length: text.utf8.count))
        }
    }

    /// The source with every check inserted.
    func apply(to source: String) -> String { SourceEdits.apply(edits, to: source) }

    /// True when a `try` at `node` propagates to the cell's entry point or to a function
    /// declared plainly `throws` (not `rethrows`, not typed), without changing any type.
    static func canThrow(at node: Syntax) -> Bool {
        var current = node.parent
        while let parent = current {
            if parent.is(ClosureExprSyntax.self) || parent.is(DeferStmtSyntax.self)
                || parent.is(DeinitializerDeclSyntax.self) || isBareGetter(parent) {
                return false
            }
            if let function = parent.as(FunctionDeclSyntax.self) {
                return throwsPlainly(function.signature.effectSpecifiers?.throwsClause)
            }
            if let initializer = parent.as(InitializerDeclSyntax.self) {
                return throwsPlainly(initializer.signature.effectSpecifiers?.throwsClause)
            }
            if let accessor = parent.as(AccessorDeclSyntax.self) {
                return throwsPlainly(accessor.effectSpecifiers?.throwsClause)
            }
            current = parent.parent
        }
        return true
    }

    /// A getter written as a bare block (`var x: Int { ... }`), which cannot throw.
    private static func isBareGetter(_ node: Syntax) -> Bool {
        guard let accessors = node.as(AccessorBlockSyntax.self), case .getter = accessors.accessors else { return false }
        return true
    }

    private static func throwsPlainly(_ clause: ThrowsClauseSyntax?) -> Bool {
        guard let clause else { return false }
        return clause.throwsSpecifier.tokenKind == .keyword(.throws) && clause.type == nil
    }
}

/// Collects the bodies of loops.
private final class LoopFinder: SyntaxVisitor {
    var bodies: [CodeBlockSyntax] = []

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if Self.isUnbounded(node.sequence) || Self.containsLoop(node.body) { bodies.append(node.body) }
        return .visitChildren
    }

    /// `a...` (a range without an end), possibly in parentheses.
    private static func isUnbounded(_ sequence: ExprSyntax) -> Bool {
        var expression = sequence
        while let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            expression = only.expression
        }
        return expression.as(PostfixOperatorExprSyntax.self)?.operator.text == "..."
    }

    private static func containsLoop(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            [.keyword(.for), .keyword(.while), .keyword(.repeat)].contains(token.tokenKind)
                && (token.parent?.is(ForStmtSyntax.self) == true || token.parent?.is(WhileStmtSyntax.self) == true
                    || token.parent?.is(RepeatStmtSyntax.self) == true)
        }
    }

    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind {
        bodies.append(node.body)
        return .visitChildren
    }

    override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind {
        bodies.append(node.body)
        return .visitChildren
    }
}
