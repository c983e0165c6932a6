@_implementationOnly import SwiftSyntax
import CellSource

/// What the classifier reads from syntax: bound names, assignments, `try` and `await`.
extension Classifier {
    /// The names a pattern binds, in order.
    static func boundNames(in pattern: PatternSyntax) -> [String] {
        boundNamesWithSpecifiers(in: pattern).map(\.name)
    }

    /// The names a pattern binds with `let` or `var` from the binding pattern around each
    /// (`case .pair(let a, var b)`); `let` when none is written.
    static func boundNamesWithSpecifiers(in pattern: PatternSyntax) -> [(name: String, specifier: String)] {
        pattern.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier(let written) = token.tokenKind,
                  token.parent?.is(IdentifierPatternSyntax.self) == true else { return nil }
            let name = PlainName.of(written)
            var node = token.parent
            while let current = node {
                if let binding = current.as(ValueBindingPatternSyntax.self) {
                    return (name, binding.bindingSpecifier.text)
                }
                if current.id == pattern.id { break }
                node = current.parent
            }
            return (name, "let")
        }
    }

    /// True for `T?`, `T!` and `Optional<T>`.
    static func isOptional(_ type: TypeSyntax?) -> Bool {
        guard let type else { return false }
        return type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
            || type.as(IdentifierTypeSyntax.self)?.name.text == "Optional"
    }

    /// Every identifier in a node.
    static func identifiers(in node: some SyntaxProtocol) -> Set<String> {
        Set(node.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let name) = token.tokenKind { return PlainName.of(name) }
            return nil
        })
    }

    /// Names on the left of a plain `=` anywhere in a node (`h = 1`, `(a, b) = pair`).
    static func assignedNames(in node: some SyntaxProtocol) -> Set<String> {
        var names = Set<String>()
        for token in node.tokens(viewMode: .sourceAccurate) where token.tokenKind == .equal {
            guard let assignment = token.parent?.as(AssignmentExprSyntax.self) else { continue }
            var left: [ExprSyntax] = []
            if let sequence = assignment.parent?.as(ExprListSyntax.self) {
                for element in sequence {
                    if element.id == assignment.id { break }
                    left.append(element)
                }
            } else if let infix = assignment.parent?.as(InfixOperatorExprSyntax.self) {
                left = [infix.leftOperand]
            }
            for expression in left {
                for reference in expression.tokens(viewMode: .sourceAccurate) {
                    guard case .identifier(let name) = reference.tokenKind,
                          let declReference = reference.parent?.as(DeclReferenceExprSyntax.self),
                          declReference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != declReference.id
                    else { continue }
                    names.insert(PlainName.of(name))
                }
            }
        }
        return names
    }

    /// `try` (not `try?`/`try!`) or `await` outside any nested closure or function.
    static func needsRuntimeEvaluation(_ expression: ExprSyntax) -> Bool {
        containsTopLevelAwait(expression) || expression.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.tokenKind == .keyword(.try), let tryExpr = token.parent?.as(TryExprSyntax.self) else { return false }
            return tryExpr.questionOrExclamationMark == nil && !isInsideNestedBody(token)
        }
    }

    static func containsTopLevelAwait(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .keyword(.await) && !isInsideNestedBody(token)
        }
    }

    static func isInsideNestedBody(_ token: TokenSyntax) -> Bool {
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

    static func isAssignment(_ expression: ExprSyntax) -> Bool {
        if expression.is(AssignmentExprSyntax.self) { return true }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            return infix.operator.is(AssignmentExprSyntax.self) || isCompoundAssignment(infix.operator)
        }
        guard let sequence = expression.as(SequenceExprSyntax.self) else { return false }
        return sequence.elements.contains { $0.is(AssignmentExprSyntax.self) || isCompoundAssignment($0) }
    }

    static func isCompoundAssignment(_ expression: ExprSyntax) -> Bool {
        guard let op = expression.as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
        return op.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(op)
    }
}
