import CellSource

/// The operator and precedence group declarations of the cells that ran, so a cell can
/// declare again the newest of those declared more than once.
///
/// Swift finds an operator's declaration in every module a cell imports, even through a
/// scoped import (`@testable import enum Cell1.…`, which the operator chain needs for older
/// cells' internal operator functions, see ``SymbolTable``). So once a cell declares
/// `infix operator <+>` again with another precedence group, a later cell sees both and
/// every use is "ambiguous operator declarations". A declaration in the cell itself
/// shadows every imported one: once a declaration was made again, a later cell carries a
/// copy of the newest declaration of each operator and precedence group.
///
/// Thread rules: a value, part of ``SymbolTable``.
struct OperatorDeclarations: Sendable {
    private struct Declared: Sendable {
        /// The newest declaration's text.
        var text: String
        /// How many cells declared it.
        var cells: Int
    }

    private var declared: [String: Declared] = [:]

    /// Records the operator and precedence group declarations of a cell that ran.
    mutating func record(_ analysis: CellAnalysis) {
        for (key, text) in Self.declarations(in: analysis) {
            declared[key, default: Declared(text: text, cells: 0)].text = text
            declared[key]?.cells += 1
        }
    }

    /// Once any operator or precedence group was declared by more than one cell: the
    /// newest declaration of every one, in a stable order, leaving out those the cell
    /// declares itself; before that, none. Every one, not only those declared again: an
    /// operator resolves its precedence group where it is declared, so `infix operator **:
    /// Power` must be declared beside the newest `precedencegroup Power` to take it.
    func shadowing(for analysis: CellAnalysis) -> [String] {
        guard declared.values.contains(where: { $0.cells > 1 }) else { return [] }
        let own = Set(Self.declarations(in: analysis).map(\.key))
        return declared.filter { !own.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value.text)
    }

    /// The operator and precedence group declarations of a cell: each one's key
    /// (`infix operator <+>`, `precedencegroup Power`) and text.
    static func declarations(in analysis: CellAnalysis) -> [(key: String, text: String)] {
        analysis.items.compactMap { item in
            guard case .moduleWideDeclaration(let snippet) = item, let key = key(of: snippet.text) else { return nil }
            return (key, snippet.text)
        }
    }

    /// `infix operator <+>` for `infix operator <+>: AdditionPrecedence`, `precedencegroup
    /// Power` for `precedencegroup Power { … }`, nil for any other declaration.
    static func key(of declaration: String) -> String? {
        if let match = declaration.firstMatch(of: /(?m)^\s*(?:@\w+\s+)*(prefix|postfix|infix)\s+operator\s+([^\s:{]+)/) {
            return "\(match.1) operator \(match.2)"
        }
        if let match = declaration.firstMatch(of: /(?m)^\s*(?:@\w+\s+)*precedencegroup\s+([A-Za-z_][A-Za-z0-9_]*)/) {
            return "precedencegroup \(match.1)"
        }
        return nil
    }
}
