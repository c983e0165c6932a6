import Foundation

/// What a completion inserts, and the order completions are offered in.
///
/// SourceKit-LSP's answer, without snippet support, has each overload's call with its
/// argument slots left empty (`classify(, preprocessing: , labels: )`): accepted as is,
/// that text does not compile. And several overloads of one name give several matches that
/// share their start (`grayscale()`, `grayscale(weights: )`), on which JupyterLab's Tab
/// neither inserts nor shows a list. So a function-like match inserts its name and an
/// opening parenthesis (`grayscale(`), or the empty call when no overload takes arguments
/// (`count()`); argument labels inside a call insert the first label (`contentsOf: `); each
/// text is offered once. Inspection (Shift-Tab, and JupyterLab's documentation panel) then
/// shows every overload's signature.
extension CodeCompletion {
    /// The matches with insertable texts, each once, in order.
    static func insertable(_ matches: [CompletionMatch]) -> [CompletionMatch] {
        let takesArguments = Dictionary(grouping: matches.compactMap(Self.call), by: \.name)
            .mapValues { calls in calls.contains(where: \.hasArguments) }
        var seen = Set<String>()
        return matches.compactMap { match in
            var insertable = match
            if let call = Self.call(match) {
                insertable.text = call.name + (takesArguments[call.name] == true ? "(" : "()")
            } else if let firstSlot = match.text.range(of: ": ,") ?? match.text.range(of: ": )") {
                insertable.text = String(match.text[..<firstSlot.lowerBound]) + ": "
            }
            return seen.insert(insertable.text).inserted ? insertable : nil
        }
    }

    /// A function-like match's name and whether it has argument slots.
    private static func call(_ match: CompletionMatch) -> (name: String, hasArguments: Bool)? {
        guard ["function", "method", "constructor"].contains(match.type),
              let open = match.text.firstIndex(of: "("), open != match.text.startIndex else { return nil }
        let inside = match.text[match.text.index(after: open)...].dropLast(match.text.hasSuffix(")") ? 1 : 0)
        return (String(match.text[..<open]), !inside.trimmingCharacters(in: .whitespaces).isEmpty)
    }

    /// The group a completion is offered in: members used on what was typed come first;
    /// after a type's name, its instance methods as unapplied references
    /// (`argmax(self: Tensor)`, rarely wanted there) come after its initialisers, static
    /// members and nested types; keywords come last.
    static func rank(label: String, type: String) -> Int {
        if type == "keyword" { return 2 }
        return label.contains("(self: ") ? 1 : 0
    }
}
