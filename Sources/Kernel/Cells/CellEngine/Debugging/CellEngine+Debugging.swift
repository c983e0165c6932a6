import CellSource
import GeneratedNames
import JSONCore

/// What the debugger's Variables panel reads (JupyterLab's `inspectVariables` and
/// `richInspectVariables`): the notebook's variables, read in the cell host by a cell the
/// engine writes, exactly as `%who` reads them (``prepareListing(_:label:id:cancellation:forDebugger:)``),
/// and one variable's rich view. The cells run like any cell (interruptible, restored from
/// the snapshot if a description traps) but show nothing in the notebook.
extension CellEngine {
    /// The label of the cells the debugger runs (named in compiler messages, never shown).
    static let debuggerLabel = "Debugger"
    /// The MIME type the host sends the variables in (`_BenchbookCell.inspectNames`).
    static let variablesMimeType = RuntimeNames.debuggerVariablesMimeType

    /// One variable of the notebook as the debugger shows it.
    public struct DebugVariable: Equatable, Sendable {
        /// The variable's name.
        public var name: String
        /// Its static Swift type as a student writes it (`[Float]`, `Tensor`).
        public var type: String
        /// Its one-line value (what `%who` shows).
        public var value: String
        /// The prompt label of the cell that defined it (`In[3]`).
        public var cell: String
        /// Its stored properties, one level deep (a struct's fields); their own `members`
        /// and `cell` are empty.
        public var members: [DebugVariable] = []
    }

    /// Reads the notebook's variables in the cell host. Shell thread only (like ``execute(_:label:output:)``).
    /// - Returns: the variables sorted by name (empty before any cell defined one), or the
    ///   error that stopped the listing cell.
    public func inspectVariables() -> Result<[DebugVariable], CellError> {
        guard symbols.newestDefinitions.contains(where: { $0.definition.kind == .var }) else { return .success([]) }
        let capture = DebuggerCapture()
        let error = run(label: Self.debuggerLabel, output: capture, isUserCell: false) { id, cancellation in
            prepareListing(.success(NameListing(detailed: true)), label: Self.debuggerLabel, id: id,
                           cancellation: cancellation, forDebugger: true)
        }
        if let error { return .failure(error) }
        guard let listed = capture.displays.lazy.compactMap({ $0[Self.variablesMimeType]?.arrayValue }).first else {
            return .failure(CellError(name: "DebuggerError", value: "The cell host sent no variables listing. "
                + (capture.text.isEmpty ? "Run a cell, then open the Variables panel again." : capture.text)))
        }
        func variable(_ entry: JSONValue) -> DebugVariable {
            DebugVariable(name: entry["name"]?.stringValue ?? "?", type: entry["type"]?.stringValue ?? "?",
                          value: entry["value"]?.stringValue ?? "", cell: entry["cell"]?.stringValue ?? "",
                          members: (entry["members"]?.arrayValue ?? []).map(variable))
        }
        return .success(listed.map(variable))
    }

    /// One variable's rich view (a tensor's shape and statistics, an image as PNG, any
    /// value's notebook display), read in the cell host. Shell thread only.
    /// - Parameter name: the variable, as the Variables panel names it.
    /// - Returns: the MIME bundle (`data`, `metadata`), or why there is none: the name is
    ///   not a variable of the notebook, its value was lost, or the cell failed.
    public func richInspect(_ name: String) -> Result<(data: JSONValue, metadata: JSONValue), CellError> {
        guard let definition = symbols.live(name).last, definition.kind == .var else {
            return .failure(CellError(name: "NameError", value: "'\(name)' is not a variable of this notebook: the Variables panel lists the ones earlier cells define."))
        }
        if definition.isLost {
            return .failure(CellError(name: "LostVariable", value: "'\(name)' was lost when the cell host restarted: re-run \(definition.cellLabel)."))
        }
        let capture = DebuggerCapture()
        let escaped = RuntimeNames.escaped(name)
        let text = "\(RuntimeNames.cellRuntime).\(RuntimeNames.richInspect)(\(escaped))"
        let statement = CellItem.statement(SourceSnippet(text: text, start: SourcePosition(line: 1, column: 1)))
        let analysis = CellAnalysis(items: [statement], identifiers: [name], references: [name], hasTopLevelAwait: false,
                                    syntaxProblems: [])
        let error = run(label: Self.debuggerLabel, output: capture, isUserCell: false) { id, cancellation in
            let generator = CellCodeGenerator(module: RuntimeNames.module(id.rawValue), cellLabel: Self.debuggerLabel,
                                              cellNumber: id.rawValue)
            switch pipeline.compile(.init(analysis: analysis, generator: generator, magic: nil), symbols: symbols,
                                    cancellation: cancellation) {
            case .success(let library):
                return .success(CompiledCell(analysis: analysis, label: Self.debuggerLabel, module: generator.module,
                                             library: library, entrySymbol: generator.entrySymbol))
            case .failure(let failure):
                if failure.interrupted { return .failure(.error(CellErrorReport.interruptedWhileCompiling())) }
                let reasons = failure.diagnostics.map(\.message).joined(separator: "; ")
                return .failure(.error(CellError(name: "DebuggerError", value: "'\(name)' could not be read from another cell: \(reasons)")))
            }
        }
        if let error { return .failure(error) }
        guard let shown = capture.displayMessages.last else {
            return .failure(CellError(name: "DebuggerError", value: "The cell host showed nothing for '\(name)'. \(capture.text)"))
        }
        return .success(shown)
    }
}

/// Collects what a debugger cell shows instead of sending it to the notebook.
final class DebuggerCapture: CellOutput, @unchecked Sendable {
    private(set) var displayMessages: [(data: JSONValue, metadata: JSONValue)] = []
    private(set) var text = ""

    /// Each display's MIME bundle, by MIME type.
    var displays: [[String: JSONValue]] { displayMessages.compactMap { $0.data.objectValue } }

    func stream(name: String, text: String) { self.text += text }
    func display(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool) {
        displayMessages.append((data, metadata))
    }
    func result(data: JSONValue, metadata: JSONValue) { displayMessages.append((data, metadata)) }
    func clearOutput(wait: Bool) {}
    func comm(_ traffic: CommTraffic) {}
    func requestInput(prompt: String, password: Bool, isStopped: () -> Bool) -> InputAnswer { .notAllowed }
}
