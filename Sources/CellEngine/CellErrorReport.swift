/// Builds the errors a user sees, in the user's terms: cell label, line, column and the
/// offending source line, never generated code.
enum CellErrorReport {
    static func syntax(_ problems: [SyntaxProblem], code: String, label: String) -> CellError {
        let diagnostics = problems.map { CellDiagnostic(message: $0.message, position: $0.position) }
        return located(name: "SyntaxError", diagnostics, code: code, label: label)
    }

    static func compile(_ diagnostics: [CellDiagnostic], code: String, label: String) -> CellError {
        located(name: "CompileError", diagnostics, code: code, label: label)
    }

    static func thrown(name: String, value: String) -> CellError {
        CellError(name: name, value: value)
    }

    static func interruptedWhileCompiling() -> CellError {
        CellError(name: "Interrupted", value: "The cell was interrupted while compiling; nothing ran and nothing changed.")
    }

    static func crash(message: String, how: String, label: String, lost: [(name: String, cell: String)]) -> CellError {
        let value = "\(label) stopped the cell host: \(message)"
        return CellError(name: "Crash", value: value,
                         traceback: ["Crash: \(value)", "The cell host ended with \(how); a new one was started and earlier declarations were reloaded."]
                            + lostLines(lost))
    }

    static func interruptKilled(lost: [(name: String, cell: String)]) -> CellError {
        let value = "The cell did not stop within 2 s of the interrupt, so the cell host was restarted."
        return CellError(name: "Interrupted", value: value, traceback: ["Interrupted: \(value)"] + lostLines(lost))
    }

    static func lostVariables(_ lost: [(name: String, definition: SymbolTable.Definition)]) -> CellError {
        let names = lost.map { "'\($0.name)' (\($0.definition.cellLabel))" }.joined(separator: ", ")
        let cells = Array(Set(lost.map(\.definition.cellLabel))).sorted().joined(separator: ", ")
        let value = "This cell uses \(names), lost when the cell host restarted. Re-run \(cells) to recreate \(lost.count == 1 ? "it" : "them"), then run this cell again."
        return CellError(name: "LostVariable", value: value)
    }

    private static func lostLines(_ lost: [(name: String, cell: String)]) -> [String] {
        guard !lost.isEmpty else { return ["No variables were lost."] }
        let names = lost.map { "\($0.name) (\($0.cell))" }.joined(separator: ", ")
        let cells = Array(Set(lost.map(\.cell))).sorted().joined(separator: ", ")
        return ["Variables lost: \(names).", "Re-run \(cells) to recreate them."]
    }

    private static func located(name: String, _ diagnostics: [CellDiagnostic], code: String, label: String) -> CellError {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var traceback: [String] = []
        for diagnostic in diagnostics {
            guard let position = diagnostic.position else {
                traceback.append("error: \(diagnostic.message)")
                continue
            }
            traceback.append("\(label), line \(position.line), column \(position.column): error: \(diagnostic.message)")
            if position.line >= 1, position.line <= lines.count {
                let sourceLine = lines[position.line - 1]
                traceback.append("    " + sourceLine)
                let prefix = String(decoding: Array(sourceLine.utf8).prefix(max(0, position.column - 1)), as: UTF8.self)
                traceback.append("    " + String(repeating: " ", count: prefix.count) + "^")
            }
        }
        let first = diagnostics.first
        let value = first.map { diagnostic in
            diagnostic.position.map { "\(diagnostic.message) (\(label), line \($0.line), column \($0.column))" } ?? diagnostic.message
        } ?? "the cell did not compile"
        return CellError(name: name, value: value, traceback: traceback)
    }
}
