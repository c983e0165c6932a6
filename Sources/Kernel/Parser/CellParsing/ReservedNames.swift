@_implementationOnly import SwiftSyntax
import CellSource
import GeneratedNames

/// Declared names that start with a prefix the generated code uses (``RuntimeNames/reservedPrefixes``):
/// such a name would shadow, or be shadowed by, the code the kernel writes around a cell
/// (`let __bb = 5` would hide the cell's context), so the cell is refused with a message
/// that names the prefix.
enum ReservedNames {
    /// A problem for each reserved name the cell declares anywhere (a binding, a type, a
    /// function, a parameter, a generic parameter, an enumeration case).
    static func problems(in tree: SourceFileSyntax, converter: SourceLocationConverter) -> [SyntaxProblem] {
        tree.tokens(viewMode: .sourceAccurate).compactMap { token -> SyntaxProblem? in
            guard case .identifier = token.tokenKind, let parent = token.parent, declares(parent) else { return nil }
            let name = PlainName.of(token.text)
            guard let prefix = RuntimeNames.reservedPrefix(of: name) else { return nil }
            let location = converter.location(for: token.positionAfterSkippingLeadingTrivia)
            return SyntaxProblem(message: "'\(name)' starts with '\(prefix)', a prefix reserved for the code the kernel writes around a cell; rename it (names starting with \(RuntimeNames.reservedPrefixes.map { "'\($0)'" }.joined(separator: ", ")) are reserved)",
                                 position: SourcePosition(line: location.line, column: location.column))
        }
    }

    private static func declares(_ node: Syntax) -> Bool {
        node.is(IdentifierPatternSyntax.self) || node.is(StructDeclSyntax.self) || node.is(ClassDeclSyntax.self)
            || node.is(EnumDeclSyntax.self) || node.is(ProtocolDeclSyntax.self) || node.is(ActorDeclSyntax.self)
            || node.is(TypeAliasDeclSyntax.self) || node.is(FunctionDeclSyntax.self) || node.is(AssociatedTypeDeclSyntax.self)
            || node.is(EnumCaseElementSyntax.self) || node.is(GenericParameterSyntax.self) || node.is(FunctionParameterSyntax.self)
            || node.is(ClosureParameterSyntax.self) || node.is(ClosureShorthandParameterSyntax.self) || node.is(MacroDeclSyntax.self)
    }
}

/// Names as Swift compares them: `` `let` `` and `let` are one name.
enum PlainName {
    /// The name without the backticks that escape it.
    static func of(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("`") && text.hasSuffix("`") ? String(text.dropFirst().dropLast()) : text
    }
}
