@_implementationOnly import SwiftSyntax
import CellSource

extension Classifier {
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
            result.insertions.append(Insertion(position: position(keyword.positionAfterSkippingLeadingTrivia), length: 7))
        }
        for offset in offsets.sorted(by: >) where offset >= 0 && offset <= bytes.count {
            bytes.insert(contentsOf: Array("public ".utf8), at: offset)
        }
        result.text = String(decoding: bytes, as: UTF8.self)
        return result
    }
}
