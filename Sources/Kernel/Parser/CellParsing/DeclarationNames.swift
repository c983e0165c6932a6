@_implementationOnly import SwiftSyntax
import CellSource

/// The names, signatures and ancestry of top-level declarations.
enum DeclarationNames {
    /// The name a named declaration makes visible, or nil for extensions, operators and
    /// other declarations without one.
    static func declared(by decl: DeclSyntax) -> DeclaredName? {
        if let d = decl.as(StructDeclSyntax.self) { return type(d.name, .struct, d.inheritanceClause) }
        if let d = decl.as(ClassDeclSyntax.self) { return type(d.name, .class, d.inheritanceClause) }
        if let d = decl.as(ActorDeclSyntax.self) { return type(d.name, .actor, d.inheritanceClause) }
        if let d = decl.as(EnumDeclSyntax.self) { return type(d.name, .enum, d.inheritanceClause) }
        if let d = decl.as(ProtocolDeclSyntax.self) { return type(d.name, .protocol, d.inheritanceClause) }
        if let d = decl.as(TypeAliasDeclSyntax.self) {
            return DeclaredName(name: PlainName.of(d.name.text), kind: .typealias, inherited: typeNames(in: d.initializer.value))
        }
        if let d = decl.as(FunctionDeclSyntax.self) {
            return DeclaredName(name: PlainName.of(d.name.text), kind: .func, signature: signature(of: d))
        }
        return nil
    }

    private static func type(_ name: TokenSyntax, _ kind: DeclarationKind, _ clause: InheritanceClauseSyntax?) -> DeclaredName {
        DeclaredName(name: PlainName.of(name.text), kind: kind, inherited: (clause?.inheritedTypes ?? []).flatMap { typeNames(in: $0.type) })
    }

    /// The type names a type expression mentions (`Box<Shape>` gives Box and Shape).
    private static func typeNames(in type: some SyntaxProtocol) -> [String] {
        type.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier(let name) = token.tokenKind, token.parent?.is(IdentifierTypeSyntax.self) == true else { return nil }
            return PlainName.of(name)
        }
    }

    /// A function's name, argument labels and parameter types, without spaces:
    /// `greet(person:String,twice:Bool)`. Result type, effects and generic constraints are
    /// left out: a later function with the same labels and parameter types replaces it.
    static func signature(of function: FunctionDeclSyntax) -> String {
        let parameters = function.signature.parameterClause.parameters.map { parameter in
            let type = parameter.type.trimmedDescription + (parameter.ellipsis == nil ? "" : "...")
            return PlainName.of(parameter.firstName.text) + ":" + type.filter { !$0.isWhitespace }
        }
        let isStatic = function.modifiers.contains { ["static", "class"].contains($0.name.text) }
        // The result type is part of it: in one file, `f() -> Int` and `f() -> String` are
        // two overloads that calls choose between by the type they expect.
        let result = function.signature.returnClause.map { "->" + $0.type.trimmedDescription.filter { !$0.isWhitespace } } ?? ""
        return (isStatic ? "static " : "") + PlainName.of(function.name.text) + "(" + parameters.joined(separator: ",") + ")" + result
    }

    /// True when a top-level declaration declares an operator, a precedence group or an
    /// operator function (at top level, or as a member of a type or extension).
    static func declaresOperators(_ decl: DeclSyntax) -> Bool {
        let finder = OperatorFinder(viewMode: .sourceAccurate)
        finder.walk(decl)
        return finder.found
    }
}

/// Finds operator declarations and operator functions outside function bodies.
private final class OperatorFinder: SyntaxVisitor {
    var found = false

    override func visit(_ node: OperatorDeclSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ node: PrecedenceGroupDeclSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        switch node.name.tokenKind {
        case .binaryOperator, .prefixOperator, .postfixOperator: found = true
        default: break
        }
        return .skipChildren
    }

    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
