@_implementationOnly import SwiftParser
@_implementationOnly import SwiftSyntax
import CellSource

extension Completeness {
    /// Judges code with the Swift parser: complete when it parses cleanly; incomplete
    /// when a bracket is still open or every error is at the very end (a trailing
    /// operator, an unfinished declaration); invalid otherwise.
    /// - Parameter code: the code typed so far.
    public init(parsing code: String) {
        let tree = Parser.parse(source: code)
        guard tree.hasError else {
            self = .complete
            return
        }
        var depth = 0
        var unterminatedString = false
        for token in tree.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .leftBrace, .leftParen, .leftSquare: depth += 1
            case .rightBrace, .rightParen, .rightSquare: depth -= 1
            case .multilineStringQuote:
                unterminatedString.toggle()
            default: break
            }
            if depth < 0 {
                self = .invalid
                return
            }
        }
        if depth > 0 || unterminatedString {
            self = .incomplete(indent: String(repeating: " ", count: 4 * max(depth, 0)))
            return
        }
        let end = tree.endPositionBeforeTrailingTrivia
        let errorsAtEnd = tree.tokens(viewMode: .all).filter { $0.presence == .missing }
            .allSatisfy { $0.position >= end }
        let hasUnexpected = tree.tokens(viewMode: .all).contains { token in
            token.presence == .present && token.parent.map { hasUnexpectedAncestor($0) } == true
        }
        self = errorsAtEnd && !hasUnexpected ? .incomplete(indent: "") : .invalid
    }
}

private func hasUnexpectedAncestor(_ node: Syntax) -> Bool {
    var current: Syntax? = node
    while let node = current {
        if node.is(UnexpectedNodesSyntax.self) { return true }
        current = node.parent
    }
    return false
}
