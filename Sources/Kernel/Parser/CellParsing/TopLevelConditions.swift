@_implementationOnly import SwiftIfConfig
@_implementationOnly import SwiftSyntax

/// `#if` blocks at a cell's top level, resolved as `swiftc` resolves them for one
/// `main.swift` (see ``CellBuildConfiguration``).
///
/// A block's directives (`#if …`, `#elseif …`, `#else`, `#endif`) and its inactive clauses
/// are blanked (spaces, line breaks kept), so the active clause's statements, bindings and
/// declarations become ordinary top-level items at their own lines and columns. Nested
/// blocks inside an active clause are resolved the same way. `#if` inside a declaration or
/// a function body is left to the compiler.
enum TopLevelConditions {
    /// The byte ranges to blank, or none when the cell has no top-level `#if`.
    static func blankedRanges(in tree: SourceFileSyntax) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for item in tree.statements {
            if let block = item.item.as(IfConfigDeclSyntax.self) { resolve(block, into: &ranges) }
        }
        return ranges
    }

    private static func resolve(_ block: IfConfigDeclSyntax, into ranges: inout [Range<Int>]) {
        let start = block.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = block.endPositionBeforeTrailingTrivia.utf8Offset
        let active = block.activeClause(in: CellBuildConfiguration.current).clause
        guard let active, let elements = active.elements else {
            ranges.append(start..<end)
            return
        }
        let keep = elements.positionAfterSkippingLeadingTrivia.utf8Offset..<elements.endPositionBeforeTrailingTrivia.utf8Offset
        ranges.append(start..<keep.lowerBound)
        ranges.append(keep.upperBound..<end)
        if case .statements(let items) = elements {
            for item in items {
                if let nested = item.item.as(IfConfigDeclSyntax.self) { resolve(nested, into: &ranges) }
            }
        }
    }
}

/// `private` and `fileprivate` outside function bodies and closures, which mean "this
/// file": in a notebook, the whole notebook. They are blanked (spaces: columns do not move),
/// so the names are internal and later cells see them, as the rest of one `main.swift`
/// does. `private(set)` and `fileprivate(set)` are blanked with their parentheses.
enum FileScopeAccess {
    /// The byte ranges of the modifiers to blank.
    static func blankedRanges(in tree: SourceFileSyntax) -> [Range<Int>] {
        let finder = FilePrivateFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.ranges
    }
}

private final class FilePrivateFinder: SyntaxVisitor {
    var ranges: [Range<Int>] = []

    override func visit(_ node: DeclModifierSyntax) -> SyntaxVisitorContinueKind {
        switch node.name.tokenKind {
        case .keyword(.private), .keyword(.fileprivate):
            ranges.append(node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset)
        default:
            break
        }
        return .skipChildren
    }

    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        // A function's or a statement's body: local declarations keep their meaning. The
        // top-level statements' own bodies (`if`, `for`) hold no file-scope names either.
        .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

extension SourceEdits {
    /// The source with each range's bytes replaced by spaces, line breaks kept.
    static func blank(_ ranges: [Range<Int>], in source: String) -> String {
        guard !ranges.isEmpty else { return source }
        var bytes = Array(source.utf8)
        for range in ranges {
            for index in range where index < bytes.count && bytes[index] != UInt8(ascii: "\n") && bytes[index] != UInt8(ascii: "\r") {
                bytes[index] = UInt8(ascii: " ")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
