import CellSource
import Foundation
import HostProtocol

/// Which cell holds the newest definition of each name, so a later cell imports exactly
/// what it uses, and which variables were lost when the cell host restarted.
public struct SymbolTable: Sendable {
    /// Where a name is defined.
    public struct Definition: Sendable, Equatable {
        /// The cell's module, for example `Cell12`.
        public var module: String
        /// The prompt label of the cell, for example `In[7]`, for messages.
        public var cellLabel: String
        /// The execution that made it (the order cells ran in).
        public var execution: Int
        public var kind: DeclarationKind
        /// True when the value lived in a cell host that has since been restarted.
        public var isLost = false
    }

    private(set) var definitions: [String: Definition] = [:]
    /// Modules with extensions, operators or other module-wide declarations; every later
    /// cell loads them (through an import of their marker type).
    private(set) var moduleWideModules: [String] = []
    /// Modules that declare types. A value of such a type can reach a later cell through a
    /// variable without the type's name appearing there; that cell needs a testable import
    /// of the type's module for internal members (memberwise init, properties). Loading all
    /// of them would make every cell slower as the notebook grows, so they are loaded only
    /// when a first compile reports an inaccessible member (see ``CellEngine``).
    private(set) var typeModules: [String] = []
    /// Modules that declare operators or precedence groups, imported whole.
    private(set) var wholeModules: [String] = []
    /// Every module compiled so far, in order (loaded again after a host restart).
    public private(set) var modules: [String] = []
    /// `import` declarations written in cells; they apply to every later cell.
    public private(set) var imports: [String] = []

    public init() {}

    /// Records a compiled cell's declarations and the bindings it made.
    /// - Parameters:
    ///   - analysis: the cell's analysis.
    ///   - module: its module name.
    ///   - cellLabel: its prompt label.
    ///   - execution: its execution number (the order cells ran in).
    ///   - boundCount: how many of its bound names were initialised before it finished.
    mutating func record(_ analysis: CellAnalysis, module: String, cellLabel: String, execution: Int, boundCount: Int) {
        modules.append(module)
        var bindingsLeft = boundCount
        for item in analysis.items {
            switch item {
            case .declaration(_, let names, let kind?):
                for name in names { definitions[name] = Definition(module: module, cellLabel: cellLabel, execution: execution, kind: kind) }
                if [.struct, .class, .enum, .protocol].contains(kind), typeModules.last != module {
                    typeModules.append(module)
                }
            case .moduleWideDeclaration(_, let whole):
                if whole, !wholeModules.contains(module) { wholeModules.append(module) }
                if moduleWideModules.last != module { moduleWideModules.append(module) }
            case .plainBinding, .evaluatedBinding:
                for name in item.definedNames where bindingsLeft > 0 {
                    bindingsLeft -= 1
                    definitions[name] = Definition(module: module, cellLabel: cellLabel, execution: execution, kind: .var)
                }
            case .import(let text):
                if !imports.contains(text) { imports.append(text) }
            default:
                break
            }
        }
    }

    /// Marks variables as lost (the host that held the values is gone).
    /// - Parameter execution: variables made by this execution or earlier are kept (a
    ///   snapshot taken after it holds them); 0 marks every variable.
    /// - Returns: the lost names with the cells that defined them, in the order the cells
    ///   ran (re-running them in that order rebuilds them).
    @discardableResult
    mutating func markVariablesLost(after execution: Int = 0) -> [LostVariable] {
        var lost: [LostVariable] = []
        for (name, definition) in definitions
        where definition.kind == .var && !definition.isLost && definition.execution > execution {
            definitions[name]?.isLost = true
            lost.append(LostVariable(name: name, cell: definition.cellLabel, execution: definition.execution))
        }
        return lost.sorted { ($0.execution, $0.name) < ($1.execution, $1.name) }
    }

    /// A variable whose value is gone.
    struct LostVariable: Sendable, Equatable {
        var name: String
        /// The label of the cell that made it.
        var cell: String
        var execution: Int
    }

    /// The lost variables a cell refers to without defining them itself.
    func lostReferences(in analysis: CellAnalysis) -> [(name: String, definition: Definition)] {
        analysis.references.subtracting(analysis.definedNames).sorted().compactMap { name in
            guard let definition = definitions[name], definition.isLost else { return nil }
            return (name, definition)
        }
    }

    /// The scoped imports and modules to link for a cell.
    /// - Parameters:
    ///   - analysis: the cell.
    ///   - loadingTypeModules: also load every module that declares a type.
    func dependencies(of analysis: CellAnalysis, loadingTypeModules: Bool = false) -> (imports: [String], modules: [String]) {
        let names = analysis.identifiers.subtracting(analysis.definedNames)
        let loaded = moduleWideModules + (loadingTypeModules ? typeModules.filter { !moduleWideModules.contains($0) } : [])
        return scopedImports(of: names, loading: loaded)
    }

    /// The one builder of a cell's import lines: a scoped testable import of the newest
    /// definition of each name (`@testable import var Cell3.x`), and an import of each
    /// module to load whole or through its marker type.
    /// - Parameters:
    ///   - names: names the cell may use; those not defined in earlier cells are skipped.
    ///   - modules: cell modules to load (extensions, operators, types).
    /// - Returns: the import lines and the modules to link, in a stable order.
    func scopedImports(of names: some Collection<String>, loading modules: [String]) -> (imports: [String], modules: [String]) {
        var lines: [String] = []
        var linked: [String] = []
        for name in names.sorted() {
            guard let definition = definitions[name] else { continue }
            // Operator functions cannot be imported by name; their module is imported whole.
            guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { continue }
            lines.append("@testable import \(definition.kind.rawValue) \(definition.module).\(name)")
            if !linked.contains(definition.module) { linked.append(definition.module) }
        }
        for module in modules {
            lines.append(wholeModules.contains(module)
                ? "@testable import \(module)"
                : "@testable import enum \(module).\(RuntimeNames.moduleMarker)")
            if !linked.contains(module) { linked.append(module) }
        }
        return (lines, linked)
    }

    /// Every defined name with its newest definition, sorted by name.
    public var newestDefinitions: [(name: String, definition: Definition)] {
        definitions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The imports a completion document needs so it sees exactly what the next cell
    /// would: every earlier name, and every module that declares types or module-wide
    /// declarations (a value of an older type reaches the cell through a variable, and its
    /// members must complete).
    public func completionImports() -> [String] {
        scopedImports(of: definitions.keys, loading: moduleWideModules + typeModules.filter { !moduleWideModules.contains($0) }).imports
    }
}
