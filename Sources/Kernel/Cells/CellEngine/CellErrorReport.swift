import Foundation
import CellSource
import GeneratedNames
import SystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Builds the errors a user sees, in the user's terms: cell label, line, column and the
/// offending source line, never generated code.
enum CellErrorReport {
    static func syntax(_ problems: [SyntaxProblem], code: String, label: String) -> CellError {
        let diagnostics = problems.map { CellDiagnostic(message: $0.message, position: $0.position) }
        return located(name: "SyntaxError", diagnostics, code: code, label: label)
    }

    /// A cell that declares names the generated code uses (see `RuntimeNames.reservedPrefixes`).
    static func reservedNames(_ problems: [SyntaxProblem], code: String, label: String) -> CellError {
        let diagnostics = problems.map { CellDiagnostic(message: $0.message, position: $0.position) }
        return located(name: "ReservedName", diagnostics, code: code, label: label)
    }

    /// - Parameter notes: lines added after the errors (what they may mean in a notebook).
    static func compile(_ diagnostics: [CellDiagnostic], code: String, label: String, notes: [String] = []) -> CellError {
        var error = located(name: "CompileError", diagnostics, code: code, label: label)
        error.traceback += notes
        return error
    }

    static func thrown(name: String, value: String) -> CellError {
        CellError(name: name, value: value)
    }

    static func interruptedWhileCompiling() -> CellError {
        CellError(name: "Interrupted", value: "The cell was interrupted while compiling; nothing ran and nothing changed.")
    }

    /// A cell whose host died while it ran: the runtime's message when there is one,
    /// otherwise what the exit status says (a signal's meaning, or that the cell called
    /// `exit`).
    static func crash(message: String?, location: String?, status: ExitStatus, label: String, lost: [SymbolTable.LostVariable]) -> CellError {
        let value = crashValue(message: message, location: location, status: status, label: label)
        return CellError(name: "Crash", value: value,
                         traceback: ["Crash: \(value)", "The cell host ended with \(status); a new one was started and earlier declarations were reloaded."]
                            + lostLines(lost))
    }

    /// How a snapshot of the host replaced one that died.
    struct Restoration {
        /// The label of the cell whose state the snapshot holds; nil for a snapshot taken
        /// before any cell ran.
        var afterLabel: String?
        /// From the host's end to the snapshot answering as the host.
        var seconds: Double
        /// Variables made after the snapshot (usually none).
        var lost: [SymbolTable.LostVariable]

        /// One line saying what was brought back.
        func summary(keeping: String) -> String {
            let point = afterLabel.map { "the snapshot taken after \($0)" } ?? "the snapshot taken before any cell ran"
            let time = seconds < 1 ? "\(max(1, Int((seconds * 1000).rounded()))) ms" : String(format: "%.1f s", seconds)
            return "The kernel restored the cell host from \(point) in \(time): \(keeping)"
        }

        var lines: [String] { lost.isEmpty ? [] : CellErrorReport.lostLines(lost) }
    }

    /// A cell whose host died while it ran, replaced by the snapshot taken before the cell.
    static func crash(message: String?, location: String?, status: ExitStatus, label: String, restored: Restoration) -> CellError {
        let value = crashValue(message: message, location: location, status: status, label: label)
        let kept = restored.lost.isEmpty ? "every variable of earlier cells is there; nothing \(label) did was kept." : "earlier variables are there except those below; nothing \(label) did was kept."
        return CellError(name: "Crash", value: value,
                         traceback: ["Crash: \(value)", restored.summary(keeping: kept)] + restored.lines)
    }

    /// A cell that did not stop after an interrupt, replaced by the snapshot taken before it.
    static func interruptKilled(label: String, restored: Restoration) -> CellError {
        let value = "\(label) did not stop within \(Int(CellEngine.interruptGracePeriod)) s of the interrupt, so its cell host was stopped."
        let kept = restored.lost.isEmpty ? "every variable of earlier cells is there; nothing \(label) did was kept." : "earlier variables are there except those below; nothing \(label) did was kept."
        return CellError(name: "Interrupted", value: value,
                         traceback: ["Interrupted: \(value)", restored.summary(keeping: kept)] + restored.lines)
    }

    /// A host that died while no cell ran, replaced by its newest snapshot.
    /// - Parameters:
    ///   - message: the runtime's message from the host's crash report (a thread an earlier
    ///     cell started trapped), when there was one.
    ///   - location: the innermost line of cell code in the crashing thread's frames.
    static func hostRestoredBetweenCells(status: ExitStatus, message: String? = nil, location: String? = nil,
                                         restored: Restoration) -> String {
        let kept = restored.lost.isEmpty ? "no variable was lost." : "earlier variables are there except those below."
        return (["The cell host stopped between cells (\(betweenCells(status: status, message: message, location: location))).",
                 restored.summary(keeping: kept)] + restored.lines).joined(separator: "\n")
    }

    /// Why a host died between cells: where and the runtime's message, or the exit status.
    private static func betweenCells(status: ExitStatus, message: String?, location: String?) -> String {
        let what = message.map { "\($0), in a thread an earlier cell started; \(status)" } ?? "\(status): \(explanation(of: status))"
        return location.map { "\($0): \(what)" } ?? what
    }

    /// The host could not leave a snapshot after a cell: a crash before the next one brings
    /// back an older state.
    /// - Parameters:
    ///   - reason: why, as the host said.
    ///   - label: the cell (`In[7]`), or nil for the host's start.
    static func snapshotFailed(reason: String, label: String?) -> String {
        let after = label.map { "after \($0)" } ?? "of the cell host"
        return "Benchbook could not keep a snapshot \(after) (\(reason)). If the cell host crashes before the next "
            + "snapshot, the kernel brings back an older one, and what was made since is lost (it names it then)."
    }

    /// `In[7], line 3: Fatal error: Index out of range` (the line when the crash was in or
    /// under cell code), or what the exit status says.
    private static func crashValue(message: String?, location: String?, status: ExitStatus, label: String) -> String {
        "\(location ?? label): \(message ?? explanation(of: status))"
    }

    /// A cell library the host could not open. Cells are linked only against what the host
    /// has not loaded, so a symbol that exists nowhere shows up here: name it as the user
    /// wrote it.
    static func loadFailed(_ message: String, label: String, demangler: URL) -> CellError {
        guard let match = message.firstMatch(of: /undefined symbol: (\S+)/) else {
            return CellError(name: "LoadError", value: message)
        }
        let symbol = String(match.1)
        var name = symbol
        if symbol.hasPrefix("$s"),
           let completion = try? ChildProcess.run(.init(executable: demangler.path, arguments: ["--simplified", symbol])),
           completion.status == .exited(code: 0) {
            let text = completion.text.trimmingCharacters(in: .whitespacesAndNewlines)
            // Unknown manglings come back as "<symbol> ---> <symbol>".
            if !text.contains("--->"), !text.isEmpty { name = NameScrubber.userFacing(text) }
        }
        return CellError(name: "LoadError", value: "\(label) uses \(name), which no library loaded in the cell host defines, so it could not run (nothing changed). Check the name; a C function must come from a library the notebook loads.")
    }

    /// What an exit status means for someone who wrote the cell.
    static func explanation(of status: ExitStatus) -> String {
        switch status {
        case .exited(let code):
            return "the cell ended the process with exit(\(code)); use `return` or throw an error to stop a cell"
        case .signalled(let signal):
            let name = ExitStatus.signalName(signal)
            switch signal {
            case SIGSEGV, SIGBUS: return "\(name): a bad memory access, or a stack overflow from too deep a recursion"
            case SIGABRT: return "\(name): abort() was called (by the cell or a library it used)"
            case SIGILL, SIGTRAP: return "\(name): a Swift runtime trap with no message"
            case SIGFPE: return "\(name): an arithmetic error such as an integer division by zero"
            case SIGKILL: return "\(name): the process was killed (out of memory, or by another process)"
            default: return "\(name), sent to the cell host"
            }
        }
    }

    /// A host that died while no cell ran: the values it held are gone.
    static func hostLostBetweenCells(status: ExitStatus, message: String? = nil, location: String? = nil,
                                     lost: [SymbolTable.LostVariable]) -> String {
        (["The cell host stopped between cells (\(betweenCells(status: status, message: message, location: location))); a new one was started."]
            + lostLines(lost)).joined(separator: "\n")
    }

    /// The cell parser could not read the cell.
    static func parser(_ error: CellParserError, label: String) -> CellError {
        switch error {
        case .cancelled:
            return interruptedWhileCompiling()
        case .refused(let message):
            return CellError(name: "ParseError", value: message)
        case .timedOut(let seconds, let nesting):
            var value = "The Swift parser did not finish reading \(label) within \(String(format: "%.1f", seconds)) s of processor time, so nothing ran."
            if nesting.deepestSquare > 12 {
                value += " Square brackets nested \(nesting.deepestSquare) levels deep make it take exponential time; build the value in steps."
            } else {
                value += " Split the cell into smaller ones."
            }
            return CellError(name: "ParseError", value: value)
        case .crashed(let status):
            return CellError(name: "ParseError", value: "The Swift parser stopped on \(label) (\(status)), so nothing ran. Simplify the cell: deeply nested expressions are the usual cause.")
        case .unavailable(let reason):
            return CellError(name: "KernelError", value: "The cell parser could not run (\(reason)). Build it with `make build`.")
        }
    }

    static func interruptKilled(lost: [SymbolTable.LostVariable]) -> CellError {
        let value = "The cell did not stop within \(Int(CellEngine.interruptGracePeriod)) s of the interrupt, so the cell host was restarted."
        return CellError(name: "Interrupted", value: value, traceback: ["Interrupted: \(value)"] + lostLines(lost))
    }

    static func lostVariables(_ lost: [(name: String, definition: SymbolTable.Definition)]) -> CellError {
        let names = lost.map { "'\($0.name)' (\($0.definition.cellLabel))" }.joined(separator: ", ")
        let cells = inExecutionOrder(lost.map { ($0.definition.cellLabel, $0.definition.execution) })
        let value = "This cell uses \(names), lost when the cell host restarted. Re-run \(cells) to recreate \(lost.count == 1 ? "it" : "them"), then run this cell again."
        return CellError(name: "LostVariable", value: value)
    }

    fileprivate static func lostLines(_ lost: [SymbolTable.LostVariable]) -> [String] {
        guard !lost.isEmpty else { return ["No variables were lost."] }
        let names = lost.map { "\($0.name) (\($0.cell))" }.joined(separator: ", ")
        let cells = inExecutionOrder(lost.map { ($0.cell, $0.execution) })
        return ["Variables lost: \(names).", "Re-run \(cells), in that order (the order they ran in), to recreate them."]
    }

    /// Cell labels once each, in the order the cells ran.
    private static func inExecutionOrder(_ cells: [(label: String, execution: Int)]) -> String {
        var seen = Set<String>()
        return cells.sorted { $0.execution < $1.execution }
            .filter { seen.insert($0.label).inserted }
            .map(\.label).joined(separator: ", ")
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
