import CellSource
import Foundation

/// A name an earlier cell defined, as completion offers it without the language server.
public struct NotebookName: Sendable, Equatable {
    /// The name, for example `greeting`.
    public var name: String
    /// How it was declared.
    public var kind: DeclarationKind
    /// The prompt label of the cell with its newest definition, for example `In[3]`.
    public var cellLabel: String
    /// For a variable, the code that declared it (``SymbolTable/Definition/source``).
    public var source: String? = nil
}

/// What a completion document needs from the notebook so far: the imports a new cell
/// would see, and the compiler arguments that find the notebook library and cell modules.
public struct CompletionContext: Sendable {
    /// `import Benchbook`, the user's imports, then a scoped testable import of the
    /// newest definition of every earlier name (and of each module-wide cell module).
    public var imports: [String]
    /// Every earlier name with its newest definition.
    public var names: [NotebookName]
    /// The notebook library's modules directory (for reading its public API).
    public var modulesDirectory: URL
    /// `-Xcc -fmodule-map-file=...` flags for the library's C modules.
    public var moduleMapFlags: [String]
    /// The engine's work directory (cell modules live in its `modules/`).
    public var workDirectory: URL
    /// The directory of `swiftc` and `sourcekit-lsp`.
    public var toolsDirectory: URL
    /// Compiler arguments for a completion document, without the file itself.
    public var compilerArguments: [String]
}

extension CellEngine {
    /// The context a completion document for the next cell needs.
    ///
    /// Call it from the thread that executes cells (the symbol table changes there).
    public func completionContext() -> CompletionContext {
        let modules = configuration.libraryDirectory.appendingPathComponent("Modules")
        let arguments = [
            "-module-name", "BenchbookCompletion", "-swift-version", "5",
            "-target", CellCompiler.targetTriple,
            "-I", modules.path, "-I", configuration.cellModulesDirectory.path,
        ] + compiler.moduleMapFlags
        let names = symbols.newestDefinitions.map {
            NotebookName(name: $0.name, kind: $0.definition.kind, cellLabel: $0.definition.cellLabel,
                         source: $0.definition.source)
        }
        return CompletionContext(
            imports: ["import Benchbook"] + symbols.imports + symbols.completionImports(),
            names: names, modulesDirectory: modules, moduleMapFlags: compiler.moduleMapFlags,
            workDirectory: configuration.workDirectory,
            toolsDirectory: configuration.toolsDirectory, compilerArguments: arguments)
    }
}
