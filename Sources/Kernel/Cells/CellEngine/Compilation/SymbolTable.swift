import CellSource
import Foundation
import HostProtocol

/// What earlier cells declared, so a later cell sees the notebook as one Swift file typed
/// in order, and which variables were lost when the cell host restarted.
///
/// Every declaration a cell makes stays visible to later cells until a later cell declares
/// one with the same signature (``DeclaredName/signature``): a function with the same name,
/// argument labels and parameter types, or for any other kind a declaration of the same
/// name. A function with a new signature adds an overload. ``imports(for:declaredHere:loadingTypeModules:)``
/// turns this into the import lines of a cell.
public struct SymbolTable: Sendable {
    /// One declaration of a name.
    public struct Definition: Sendable, Equatable {
        /// The cell's module, for example `Cell12`.
        public var module: String
        /// The prompt label of the cell, for example `In[7]`, for messages.
        public var cellLabel: String
        /// The execution that made it (the order cells ran in).
        public var execution: Int
        public var kind: DeclarationKind
        public var signature: String
        /// For a type, the names it inherits from.
        public var inherited: [String] = []
        /// True once a later declaration with the same signature replaced it.
        public var isReplaced = false
        /// True when the value lived in a cell host that has since been restarted.
        public var isLost = false
        /// For a variable, the text of the cell's code that declared it (its binding, or
        /// its local scope's statements): completion reads the value's type from it
        /// (`let m = try Model(...)`) while SourceKit-LSP is not ready.
        public var source: String?

        /// True when `declared` replaces this definition.
        func isReplaced(by declared: DeclaredName) -> Bool {
            declared.kind != .func || kind != .func || declared.signature == signature
        }
    }

    /// Every declaration of each name, oldest first: the live ones, and the replaced ones of
    /// modules that still hold a live declaration of the name (see ``imports(for:declaredHere:loadingTypeModules:)``).
    private(set) var definitions: [String: [Definition]] = [:]
    /// Modules with extensions or other module-wide declarations; every later cell loads
    /// them (through a scoped import of their marker type).
    private(set) var moduleWideModules: [String] = []
    /// Modules that declare types. A value of such a type can reach a later cell through a
    /// variable without the type's name appearing there; that cell needs a testable import
    /// of the type's module for internal members (memberwise init, properties). Loading all
    /// of them would make every cell slower as the notebook grows, so they are loaded only
    /// when a first compile reports an inaccessible member (see ``CellEngine``).
    private(set) var typeModules: [String] = []
    /// Modules that declare operators or operator functions, in order: Swift finds operator
    /// functions only in modules imported whole or re-exported by one, so they form a chain
    /// (see ``imports(for:declaredHere:loadingTypeModules:)``).
    private(set) var operatorModules: [String] = []
    /// The operator and precedence group declarations, for a later cell to declare again
    /// the newest of those declared more than once.
    private(set) var operatorDeclarations = OperatorDeclarations()
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
        if analysis.declaresOperators {
            operatorModules.append(module)
            operatorDeclarations.record(analysis)
        }
        var bindingsLeft = boundCount
        for item in analysis.items {
            switch item {
            case .declaration(_, let declared):
                for name in declared {
                    add(name, module: module, cellLabel: cellLabel, execution: execution)
                    if name.kind.isType, typeModules.last != module { typeModules.append(module) }
                }
            case .moduleWideDeclaration:
                if moduleWideModules.last != module { moduleWideModules.append(module) }
            case .binding, .localScope, .unsetBinding:
                for name in item.definedNames where bindingsLeft > 0 {
                    bindingsLeft -= 1
                    add(DeclaredName(name: name, kind: .var), module: module, cellLabel: cellLabel, execution: execution,
                        source: Self.source(of: item))
                }
            case .import(let text):
                if !imports.contains(text) { imports.append(text) }
            case .statement, .result:
                break
            }
        }
    }

    /// Adds a declaration, marking the ones it replaces, and forgets replaced ones no
    /// import can reach any more.
    private mutating func add(_ declared: DeclaredName, module: String, cellLabel: String, execution: Int,
                              source: String? = nil) {
        var list = definitions[declared.name] ?? []
        for index in list.indices where !list[index].isReplaced && list[index].module != module {
            if list[index].isReplaced(by: declared) { list[index].isReplaced = true }
        }
        list.append(Definition(module: module, cellLabel: cellLabel, execution: execution, kind: declared.kind,
                               signature: declared.signature, inherited: declared.inherited, source: source))
        let liveModules = Set(list.filter { !$0.isReplaced }.map(\.module))
        definitions[declared.name] = list.filter { !$0.isReplaced || liveModules.contains($0.module) }
    }

    /// The code that declares a binding item's names (see ``Definition/source``).
    private static func source(of item: CellItem) -> String? {
        switch item {
        case .binding(let binding): binding.snippet.text
        case .localScope(let scope): scope.statements.map(\.text).joined(separator: "\n")
        case .unsetBinding(let binding): "\(binding.isConstant ? "let" : "var") \(binding.name): \(binding.type)"
        default: nil
        }
    }

    /// The live declarations of a name, oldest first.
    func live(_ name: String) -> [Definition] {
        (definitions[name] ?? []).filter { !$0.isReplaced }
    }

    /// Marks variables as lost (the host that held the values is gone).
    /// - Parameter execution: variables made by this execution or earlier are kept (a
    ///   snapshot taken after it holds them); 0 marks every variable.
    /// - Returns: the lost names with the cells that defined them, in the order the cells
    ///   ran (re-running them in that order rebuilds them).
    @discardableResult
    mutating func markVariablesLost(after execution: Int = 0) -> [LostVariable] {
        var lost: [LostVariable] = []
        for (name, list) in definitions {
            for index in list.indices {
                let definition = list[index]
                guard definition.kind == .var, !definition.isReplaced, !definition.isLost, definition.execution > execution else { continue }
                definitions[name]?[index].isLost = true
                lost.append(LostVariable(name: name, cell: definition.cellLabel, execution: definition.execution))
            }
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
            guard let definition = live(name).last, definition.isLost else { return nil }
            return (name, definition)
        }
    }

    /// Every defined name with its newest live definition, sorted by name.
    public var newestDefinitions: [(name: String, definition: Definition)] {
        definitions.keys.sorted().compactMap { name in live(name).last.map { (name, $0) } }
    }
}
