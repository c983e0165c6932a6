import CellSource
import Foundation
import GeneratedNames

/// The import lines that show a cell exactly the live declarations of earlier cells.
///
/// Three Swift rules decide the lines (each checked on this toolchain, see
/// docs/cell-model.md):
/// - `@testable import struct Cell3.Point` (a scoped import) shows only that name of the
///   module, with its internal members; a declaration reached through a scoped import
///   shadows one with the same signature reached through a whole-module import.
/// - Operator functions are found only in modules imported whole, or re-exported
///   (`@_exported import`) by one; a declaration in a module reached only through another
///   module's re-export is shadowed by a same-signature one of that module.
/// - Extension members and conformances are seen once their module is imported at all
///   (a scoped import of the cell's marker type is enough).
///
/// So a cell imports, for each earlier name it mentions, each module holding a live
/// declaration of it, scoped; replaced declarations are left out. A module that holds a
/// replaced declaration of a name beside a live one (a cell declared `f(_: Int)` and
/// `f(_: String)`, a later one replaced `f(_: Int)`) is imported whole instead, so the
/// replacement, imported scoped, shadows the old one. Types bring the names they inherit
/// from (their cells hold the members an override or a conformance needs).
///
/// Cells that declare operators or operator functions form a chain: each re-exports the
/// one before it, and a later cell imports only the newest whole. Every operator is
/// found, and one redeclared with the same signature shadows the older one. The older
/// cells of the chain are also imported through their marker type, with `@testable`, so
/// their internal operator functions are accessible.
extension SymbolTable {
    /// The imports and modules to link for a cell.
    /// - Parameters:
    ///   - analysis: the cell.
    ///   - loadingTypeModules: also load every module that declares a type.
    ///   - alsoUsing: names the generated code adds (a type written for an opaque variable).
    /// - Returns: the import lines (with the operator chain's re-export for a cell that
    ///   declares operators), the modules to link, and the declarations the cell repeats so
    ///   that they shadow imported ones (``OperatorDeclarations``).
    func dependencies(of analysis: CellAnalysis, loadingTypeModules: Bool = false,
                      alsoUsing: Set<String> = []) -> (imports: [String], modules: [String], shadowing: [String]) {
        let declaredHere = analysis.items.flatMap { item -> [DeclaredName] in
            if case .declaration(_, let names) = item { return names }
            return item.definedNames.map { DeclaredName(name: $0, kind: .var) }
        }
        var found = imports(for: analysis.identifiers.union(alsoUsing), declaredHere: declaredHere, loadingTypeModules: loadingTypeModules)
        if analysis.declaresOperators, let previous = operatorModules.last {
            found.imports.append("@_exported import \(previous)")
        }
        return (found.imports, found.modules, operatorDeclarations.shadowing(for: analysis))
    }

    /// The one builder of a cell's import lines.
    /// - Parameters:
    ///   - names: names the cell may use; those no earlier cell declares are skipped.
    ///   - declaredHere: what the cell itself declares (it replaces earlier declarations
    ///     with the same signatures, which are then not imported).
    ///   - loadingTypeModules: also load every module that declares a type.
    /// - Returns: the import lines and the modules to link, in a stable order.
    func imports(for names: some Collection<String>, declaredHere: [DeclaredName],
                 loadingTypeModules: Bool) -> (imports: [String], modules: [String]) {
        var scoped: [String] = []
        var whole = operatorModules.suffix(1).map { $0 }
        var linked: [String] = []
        func link(_ module: String) { if !linked.contains(module) { linked.append(module) } }

        var pending = names.sorted()
        var visited = Set<String>()
        while let name = pending.popLast() {
            guard visited.insert(name).inserted, let all = definitions[name] else { continue }
            // Operator functions cannot be imported by name; their modules are imported whole.
            guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { continue }
            let here = declaredHere.filter { $0.name == name }
            let isDead = { (definition: Definition) in definition.isReplaced || here.contains(where: definition.isReplaced(by:)) }
            let live = all.filter { !isDead($0) }
            for module in unique(live.map(\.module)) {
                if all.contains(where: { $0.module == module && isDead($0) }) {
                    if !whole.contains(module) { whole.append(module) }
                } else {
                    for kind in unique(live.filter { $0.module == module }.map(\.kind)) {
                        scoped.append("@testable import \(kind.importKeyword) \(module).\(RuntimeNames.escaped(name))")
                    }
                }
                link(module)
            }
            pending += live.flatMap(\.inherited).filter { !visited.contains($0) }
        }
        var lines = scoped.sorted()
        for module in whole {
            lines.append("@testable import \(module)")
            link(module)
        }
        let loaded = operatorModules.dropLast() + moduleWideModules + (loadingTypeModules ? typeModules : [])
        for module in unique(loaded) where !whole.contains(module) {
            lines.append("@testable import enum \(module).\(RuntimeNames.moduleMarker)")
            link(module)
        }
        return (lines, linked)
    }

    /// The imports a completion document needs so it sees exactly what the next cell
    /// would: every earlier name, and every module that declares types or module-wide
    /// declarations (a value of an older type reaches the cell through a variable, and its
    /// members must complete).
    public func completionImports() -> [String] {
        imports(for: definitions.keys, declaredHere: [], loadingTypeModules: true).imports
    }
}

/// The elements in order, each once.
private func unique<T: Hashable>(_ elements: [T]) -> [T] {
    var seen = Set<T>()
    return elements.filter { seen.insert($0).inserted }
}
