import Foundation
import CellSource
import GeneratedNames

/// A compiler error mapped back to the user's cell.
public struct CellDiagnostic: Sendable, Equatable {
    public var message: String
    /// Nil when the error is not in the cell's text (for example a link error).
    public var position: SourcePosition?

    /// Creates a diagnostic.
    public init(message: String, position: SourcePosition?) {
        self.message = message
        self.position = position
    }

    /// The file of an error outside the cell (generated code), when the compiler named one.
    public var file: String?

    /// An internal member of a type from an earlier cell that this cell cannot see.
    var isInaccessibleMember: Bool {
        message.contains("inaccessible due to 'internal' protection level")
    }

    /// An error about a `@usableFromInline` mark the engine added.
    var isAboutUsableFromInline: Bool { message.contains("@usableFromInline") }

    /// The name of a "cannot find 'x' in scope" error.
    var unknownName: String? {
        message.firstMatch(of: /^cannot find (?:type )?'([^']+)' in scope/).map { String($0.1) }
    }
}

/// Why a cell did not compile.
public struct CompileFailure: Error, Sendable {
    public var diagnostics: [CellDiagnostic]
    /// True when the compile was stopped by an interrupt.
    public var interrupted: Bool

    /// Creates a failure.
    public init(diagnostics: [CellDiagnostic], interrupted: Bool = false) {
        self.diagnostics = diagnostics
        self.interrupted = interrupted
    }

    /// Stopped by an interrupt.
    static let interrupted = CompileFailure(diagnostics: [], interrupted: true)

    /// A tool failed outside the cell's text.
    static func toolFailed(_ tool: String, _ text: String) -> CompileFailure {
        CompileFailure(diagnostics: [CellDiagnostic(message: "\(tool) failed: \(NameScrubber.compilerMessage(text))", position: nil)])
    }

    /// The cell's source could not be written.
    static func notWritten(_ directory: String, _ reason: String) -> CompileFailure {
        CompileFailure(diagnostics: [CellDiagnostic(message: "cannot write the cell to \(directory): \(reason)", position: nil)])
    }
}

/// Reads compiler output.
enum CompilerDiagnostics {
    /// The errors in compiler output: those in the user's cell (with line and column,
    /// corrected for text the engine inserted) first, then the messages of the others
    /// (never the generated code).
    static func parse(_ output: String, cellLabel: String, insertions: [Insertion] = []) -> [CellDiagnostic] {
        var found: [CellDiagnostic] = []
        let pattern = /^(.*?):(\d+):(\d+): error: (.*)$/
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            if let match = try? pattern.wholeMatch(in: String(line)) {
                let message = NameScrubber.compilerMessage(String(match.4))
                if String(match.1) == cellLabel {
                    let line = Int(match.2)!
                    var column = Int(match.3)!
                    for insertion in insertions where insertion.position.line == line && insertion.position.column < column {
                        column = max(insertion.position.column, column - insertion.length)
                    }
                    found.append(CellDiagnostic(message: message, position: SourcePosition(line: line, column: column)))
                } else {
                    var diagnostic = CellDiagnostic(message: message, position: nil)
                    diagnostic.file = String(match.1)
                    found.append(diagnostic)
                }
            } else if line.hasPrefix("error: ") {
                found.append(CellDiagnostic(message: NameScrubber.compilerMessage(String(line.dropFirst(7))), position: nil))
            }
        }
        if found.isEmpty {
            found.append(CellDiagnostic(message: NameScrubber.compilerMessage(output.trimmingCharacters(in: .whitespacesAndNewlines)), position: nil))
        }
        // Errors inside the cell first: they are the ones the user can fix.
        var seen = Set<String>()
        return (found.filter { $0.position != nil } + found.filter { $0.position == nil })
            .filter { seen.insert("\($0.file ?? ""):\($0.position?.line ?? 0):\($0.message)").inserted }
    }
}
