import CellSource
import GeneratedNames

/// Variables whose type is an opaque `some P` returned by another declaration.
///
/// A local `let s = makeShape()` may have such a type, and so may a `main.swift` top-level
/// variable; a module variable may not unless the type is written (`let s: some Shape =
/// makeShape()`). The compiler names the type in its error, so the cell is compiled again
/// with it written (see ``CellCodeGenerator/Fixes``). A tuple pattern cannot be given an
/// opaque type, so such a binding runs as a local scope, whose names get theirs one by one.
enum OpaqueTypes {
    /// The fixes the errors of a compile call for, added to those it was compiled with.
    static func fixes(for diagnostics: [CellDiagnostic], in analysis: CellAnalysis,
                      adding fixes: CellCodeGenerator.Fixes) -> CellCodeGenerator.Fixes {
        var fixes = fixes
        for diagnostic in diagnostics {
            guard let match = diagnostic.message.firstMatch(
                of: /property definition has inferred type '(.+)', involving the 'some' return type of another declaration/) else { continue }
            let type = String(match.1)
            let generated = CellCodeGenerator.exportFile("*").split(separator: "*").map(String.init)
            if let file = diagnostic.file, generated.count == 2, file.hasPrefix(generated[0]), file.hasSuffix(generated[1]) {
                fixes.annotations[String(file.dropFirst(generated[0].count).dropLast(generated[1].count))] = type
            } else if let line = diagnostic.position?.line, let scope = scopeStorage(startingOn: line, in: analysis, fixes) {
                // A scope's storage, declared at the line of the scope's first statement
                // (the message names its type without the generated wrapper).
                fixes.annotations[scope] = type.hasPrefix(RuntimeNames.scopeType + "<") ? type : RuntimeNames.scopeType + "<" + type + ">"
            } else if let line = diagnostic.position?.line {
                for case .binding(let binding) in analysis.items where binding.snippet.start.line == line {
                    guard let name = binding.names.first else { continue }
                    if binding.annotationOffset != nil {
                        fixes.annotations[name] = type
                    } else {
                        fixes.bindingsAsScopes.insert(name)
                    }
                }
            }
        }
        return fixes
    }

    /// The storage name of the scope whose first statement is on `line`, if any.
    private static func scopeStorage(startingOn line: Int, in analysis: CellAnalysis,
                                     _ fixes: CellCodeGenerator.Fixes) -> String? {
        for item in analysis.items {
            switch item {
            case .localScope(let scope) where scope.firstLine == line:
                return RuntimeNames.scopePrefix + (scope.exports.first?.name ?? "")
            case .binding(let binding) where binding.snippet.start.line == line
                && fixes.bindingsAsScopes.contains(binding.names.first ?? ""):
                return RuntimeNames.scopePrefix + (binding.names.first ?? "")
            default:
                continue
            }
        }
        return nil
    }
}
