@_implementationOnly import SwiftSyntax
import CellSource

/// Marks a cell's types, and the members of its classes a subclass can override,
/// `@usableFromInline`, so an override reaches every later cell.
///
/// When a cell declares `class AutomaticCar: Car`, Swift builds its method table from what
/// it knows of `Car` (an earlier cell) and of `Car`'s superclass `Vehicle` (a cell before
/// that). It takes `Car`'s override of `Vehicle.description` only if `Vehicle.description`
/// is accessible from `Car`'s module as the compiler sees it from the new cell, and it does
/// not see there the `@testable` import that made the internal member accessible: the
/// override was dropped, and `AutomaticCar().description` ran `Vehicle`'s code (an
/// inherited convenience initialiser even ran the wrong initialiser). `@usableFromInline`
/// passes that check without changing what any name means or who can see it; the types
/// named in those members' signatures must then be `@usableFromInline` too, so the cell's
/// structures, classes, enumerations, actors and typealiases are marked. Protocols are
/// not: every type conforming to a marked protocol would need its witnesses marked. A
/// member that names a protocol in its signature (or any other mark Swift refuses) makes
/// the cell's marks fail to compile; the engine then compiles the cell without them.
/// Declarations with a written access level other than `internal` are left as they are.
struct OverrideVisibility {
    /// Where to insert the attribute, in UTF-8 offsets of the original text.
    private(set) var edits: [(offset: Int, text: String)] = []
    private(set) var insertions: [Insertion] = []
    static let attribute = "@usableFromInline "

    /// No marks.
    init() {}

    init(tree: SourceFileSyntax, converter: SourceLocationConverter) {
        for item in tree.statements {
            if case .decl(let decl) = item.item { visit(decl, inClass: false, converter: converter) }
        }
    }

    private mutating func visit(_ decl: DeclSyntax, inClass: Bool, converter: SourceLocationConverter) {
        if let group = decl.asProtocol(DeclGroupSyntax.self) {
            let isClass = decl.is(ClassDeclSyntax.self)
            if !decl.is(ExtensionDeclSyntax.self), !decl.is(ProtocolDeclSyntax.self), Self.isInternal(group.modifiers) {
                mark(decl, converter)
            }
            let isFinal = group.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
            for member in group.memberBlock.members {
                visit(member.decl, inClass: isClass && !isFinal, converter: converter)
            }
        } else if let alias = decl.as(TypeAliasDeclSyntax.self), Self.isInternal(alias.modifiers) {
            mark(decl, converter)
        } else if inClass, let member = decl.asProtocol(WithModifiersSyntax.self), Self.isOverridable(decl, member.modifiers) {
            mark(decl, converter)
        }
    }

    /// No access level written, or `internal`.
    private static func isInternal(_ modifiers: DeclModifierListSyntax) -> Bool {
        !modifiers.contains { ["private", "fileprivate", "public", "open", "package"].contains($0.name.text) }
    }

    /// A method, initialiser, subscript or `var` a subclass can override.
    private static func isOverridable(_ decl: DeclSyntax, _ modifiers: DeclModifierListSyntax) -> Bool {
        guard isInternal(modifiers), !modifiers.contains(where: { ["final", "static"].contains($0.name.text) }) else { return false }
        if let variable = decl.as(VariableDeclSyntax.self) { return variable.bindingSpecifier.tokenKind == .keyword(.var) }
        return decl.is(FunctionDeclSyntax.self) || decl.is(InitializerDeclSyntax.self) || decl.is(SubscriptDeclSyntax.self)
    }

    private mutating func mark(_ decl: DeclSyntax, _ converter: SourceLocationConverter) {
        if decl.asProtocol(WithAttributesSyntax.self)?.attributes.contains(where: {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "usableFromInline"
        }) == true { return }
        let position = decl.positionAfterSkippingLeadingTrivia
        let location = converter.location(for: position)
        edits.append((position.utf8Offset, Self.attribute))
        insertions.append(Insertion(position: SourcePosition(line: location.line, column: location.column),
                                    length: Self.attribute.utf8.count))
    }
}
