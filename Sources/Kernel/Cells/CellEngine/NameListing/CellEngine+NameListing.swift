import CellSource
import Foundation
import GeneratedNames

/// `%who` and `%whos` (``NameListing``): the names come from the engine's ``SymbolTable``
/// (the newest definition of each, the cell that made it, whether its value was lost); the
/// values live in the cell host. So the listing is a cell the engine writes itself: it
/// imports every readable variable the way any later cell would (scoped testable imports)
/// and hands each value, generically, to the notebook library, which reads its static
/// type and a one-line description inside the host and prints the listing. Nothing is
/// guessed from the cell's text, and the listing runs like a cell: interruptible, on the
/// host that holds the values, restored from the snapshot if a description traps.
extension CellEngine {
    /// Writes and compiles the listing cell (or says why the `%who` line cannot run).
    ///
    /// A variable the listing cannot read (declared `private` or `fileprivate` in its cell,
    /// so no other module sees it) fails the compile on its own line: it is listed as
    /// unreadable, with the compiler's reason, and the cell compiles once more without it.
    /// - Parameter forDebugger: calls the library's `inspectNames` (the debugger's
    ///   Variables panel) instead of printing the listing.
    func prepareListing(_ request: Result<NameListing, MagicProblem>, label: String, id: CellID,
                        cancellation: CellCancellation, forDebugger: Bool = false) -> Result<CompiledCell, NotRun> {
        let listing: NameListing
        switch request {
        case .success(let parsed): listing = parsed
        case .failure(let problem): return .failure(.error(CellError(name: "MagicError", value: problem.description)))
        }
        let generator = CellCodeGenerator(module: RuntimeNames.module(id.rawValue), cellLabel: label, cellNumber: id.rawValue)
        var unreadable: [String: String] = [:]
        while true {
            let cell = listingCell(listing, unreadable: unreadable, forDebugger: forDebugger)
            switch pipeline.compile(.init(analysis: cell.analysis, generator: generator, magic: nil), symbols: symbols,
                                    cancellation: cancellation) {
            case .success(let library):
                return .success(CompiledCell(analysis: cell.analysis, label: label, module: generator.module,
                                             library: library, entrySymbol: generator.entrySymbol))
            case .failure(let failure):
                if failure.interrupted { return .failure(.error(CellErrorReport.interruptedWhileCompiling())) }
                let blamed = failure.diagnostics.compactMap { diagnostic in
                    diagnostic.position.flatMap { cell.nameOnLine[$0.line] }.map { ($0, diagnostic.message) }
                }.filter { unreadable[$0.0] == nil }
                guard !blamed.isEmpty else {
                    let reasons = failure.diagnostics.map(\.message).joined(separator: "; ")
                    return .failure(.error(CellError(name: "WhoError", value: "The notebook's names could not be listed: \(reasons)")))
                }
                for (name, message) in blamed { unreadable[name] = message }
            }
        }
    }

    /// The listing cell's one statement: a call to the library with an entry per name, one
    /// line each, and which name each line reads.
    private func listingCell(_ listing: NameListing, unreadable: [String: String], forDebugger: Bool)
        -> (analysis: CellAnalysis, nameOnLine: [Int: String]) {
        let literal = CellCodeGenerator.literal
        let filter = listing.filter.map(literal).joined(separator: ", ")
        var lines = [forDebugger
            ? "\(RuntimeNames.cellRuntime).\(RuntimeNames.inspectNames)(["
            : "\(RuntimeNames.cellRuntime).\(RuntimeNames.listNames)(detailed: \(listing.detailed), filter: [\(filter)], ["]
        var nameOnLine: [Int: String] = [:]
        var read: Set<String> = []
        for (name, definition) in symbols.newestDefinitions where Self.isIdentifier(name) {
            let cell = literal(definition.cellLabel)
            switch definition.kind {
            case .var where definition.isLost:
                lines.append("    .\(RuntimeNames.listedLost)(\(literal(name)), cell: \(cell)),")
            case .var:
                if let reason = unreadable[name] {
                    lines.append("    .\(RuntimeNames.listedUnreadable)(\(literal(name)), cell: \(cell), reason: \(literal(reason))),")
                } else {
                    lines.append("    .\(RuntimeNames.listedValue)(\(literal(name)), cell: \(cell), `\(name)`),")
                    read.insert(name)
                }
            default:
                lines.append("    .\(RuntimeNames.listedDeclaration)(\(literal(name)), kind: \(literal(definition.kind.rawValue)), cell: \(cell)),")
            }
            nameOnLine[lines.count] = name
        }
        lines.append("])")
        let statement = CellItem.statement(SourceSnippet(text: lines.joined(separator: "\n"), start: SourcePosition(line: 1, column: 1)))
        let analysis = CellAnalysis(items: [statement], identifiers: read, references: read, hasTopLevelAwait: false,
                                    syntaxProblems: [])
        return (analysis, nameOnLine)
    }

    /// True for a name a cell can write as an identifier (not an operator).
    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        return first == "_" || CharacterSet.letters.contains(first)
    }
}
