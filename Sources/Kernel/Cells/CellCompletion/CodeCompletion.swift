import BenchbookSettings
import Foundation
import CellEngine

/// Completion and inspection for a notebook's next cell, answered by SourceKit-LSP on a
/// document made of the imports that cell would see plus its code.
///
/// When the server is missing, crashes, is slow or is starting, answers fall back to the
/// notebook's own names and the library's public API; requests never throw and never block
/// longer than the session's timeout. A completion never waits for a server to start
/// (JupyterLab drops an answer after 1,000 ms); an inspection does.
///
/// Thread rules: call from the thread that executes cells (the kernel's shell thread);
/// see ``LanguageServerSession`` and ``LSPConnection`` for the threads underneath.
public final class CodeCompletion: @unchecked Sendable {
    unowned let engine: CellEngine
    private let session: LanguageServerSession
    let libraryAPI = LibraryAPI()
    /// At most this many matches are returned.
    static let matchLimit = 300
    /// The last request (completion or inspection) and whether its document was padded.
    private var lastCompletion: (code: String, cursor: Int, padded: Bool)?
    /// Whether ``loadLibraryAPILater(after:)`` was called.
    var libraryLoadScheduled = false

    /// Creates completion for an engine's notebook; SourceKit-LSP starts on first use
    /// (`BENCHBOOK_SOURCEKIT_LSP` names another server binary).
    public init(engine: CellEngine) {
        self.engine = engine
        let work = engine.configuration.workDirectory
        let executable = KernelSettings.current.sourceKitLSP.map { URL(fileURLWithPath: $0) }
            ?? engine.configuration.toolsDirectory.appendingPathComponent("sourcekit-lsp")
        session = LanguageServerSession(executable: executable, workDirectory: work)
        startLibraryLoad(engine.completionContext(), extracting: false)
    }

    /// Completions for the cursor (a code-point offset) in a cell.
    public func complete(code: String, cursor: Int) -> CompletionList {
        let cursor = min(max(0, cursor), code.unicodeScalars.count)
        let context = engine.completionContext()
        let document = document(for: code, cursor: cursor, context: context)
        let position = document.position(ofCellOffset: cursor)
        do {
            let result = try session.request("textDocument/completion", imports: document.imports, text: document.text, line: position.line,
                                             character: position.character, compilerArguments: context.compilerArguments)
            return languageServerList(result, document: document, cursor: cursor)
        } catch {
            Trace.note("completion falls back: \(error)")
            return fallbackList(code: code, cursor: cursor, context: context)
        }
    }

    /// The signature and documentation of the name at the cursor, or of the call whose
    /// arguments the cursor is in (`try Model(contentsOf|`), as IPython inspects: there
    /// the call's overloads come first when its name is a type (its initialisers).
    /// - Returns: nil when nothing is known about it.
    public func inspect(code: String, cursor: Int) -> Inspection? {
        let call = CursorScan.enclosingCall(in: code, cursor: cursor)
        var range = CursorScan.identifier(in: code, cursor: cursor)
        if let call, range == nil || CursorScan.isArgumentStart(range!, in: code) { range = call.callee }
        guard let range else { return nil }
        let name = CursorScan.text(of: range, in: code)
        let context = engine.completionContext()
        let document = document(for: code, cursor: range.lowerBound, context: context)
        let position = document.position(ofCellOffset: range.lowerBound)
        func request(_ method: String, at position: (line: Int, character: Int)) throws(CompletionError) -> JSONValue {
            // A tooltip waits for its answer: an inspection waits for a starting server.
            try session.request(method, imports: document.imports, text: document.text, line: position.line,
                                character: position.character, compilerArguments: context.compilerArguments,
                                waitsForStart: true)
        }
        do {
            var hover = Self.inspection(fromHover: try request("textDocument/hover", at: position))
            // Hover finds nothing on an overloaded name in an unfinished call
            // (`n.advanced(`); completion at the name still knows each overload.
            if hover == nil {
                hover = Self.inspection(fromCompletion: try request("textDocument/completion", at: position), name: name)
            }
            if let call, call.callee == range, hover.map(Self.describesType) ?? true,
               let overloads = Self.inspection(fromCallItems: try request("textDocument/completion",
                                                                          at: document.position(ofCellOffset: call.parenthesis + 1)),
                                              callee: name) {
                return hover.map { overloads.followed(by: $0) } ?? overloads
            }
            if let hover { return hover }
        } catch {
            Trace.note("inspection falls back: \(error)")
        }
        return fallbackInspection(name: name, context: context)
    }

    /// Stops the language server (a kernel shutting down or restarting).
    public func stop() { session.stop() }

    /// The document for a request at `cursor`. Unless the request continues the last one
    /// (the user typed more of the same name), the padding line flips, so the server's
    /// reused completion session from the last request cannot answer this one.
    private func document(for code: String, cursor: Int, context: CompletionContext) -> CompletionDocument {
        var padded = lastCompletion?.padded ?? false
        if let last = lastCompletion, !CursorScan.continues(code, cursor: cursor, previous: last.code, previousCursor: last.cursor) {
            padded.toggle()
        }
        lastCompletion = (code, cursor, padded)
        return CompletionDocument(imports: context.imports, cell: code, padded: padded)
    }

    // MARK: Language server answers

    private func languageServerList(_ result: JSONValue, document: CompletionDocument, cursor: Int) -> CompletionList {
        let items = result.arrayValue ?? result["items"]?.arrayValue ?? []
        var start = CursorScan.identifierStart(in: document.cell, cursor: cursor)
        var end = cursor
        if let range = items.lazy.compactMap({ $0["textEdit"]?["range"] }).first,
           let first = Self.cellRange(range, in: document) {
            (start, end) = (first.lowerBound, first.upperBound)
        }
        let typed = CursorScan.text(of: start..<cursor, in: document.cell).lowercased()
        let offered = items
            .filter { item in
                // Items replacing a different range cannot share the reply's one range.
                if let range = item["textEdit"]?["range"], Self.cellRange(range, in: document) != start..<end { return false }
                let key = (item["filterText"]?.stringValue ?? item["label"]?.stringValue ?? "").lowercased()
                return typed.isEmpty || key.hasPrefix(typed)
            }
            .compactMap { item -> (match: CompletionMatch, rank: Int, sortText: String)? in
                guard let text = item["textEdit"]?["newText"]?.stringValue ?? item["insertText"]?.stringValue
                    ?? item["label"]?.stringValue, !text.isEmpty else { return nil }
                let type = Self.kind(item["kind"]?.intValue ?? 0)
                let label = item["label"]?.stringValue ?? text
                let match = CompletionMatch(text: text, type: type,
                                            signature: Self.signature(label: label, detail: item["detail"]?.stringValue ?? "", type: type))
                return (match, Self.rank(label: label, type: type), item["sortText"]?.stringValue ?? "")
            }
            .sorted { ($0.rank, $0.sortText) < ($1.rank, $1.sortText) }
            .map(\.match)
        return CompletionList(matches: Array(Self.insertable(offered).prefix(Self.matchLimit)), cursorStart: start, cursorEnd: end,
                              source: .languageServer)
    }

    /// The cell's code-point range of an LSP range, or nil when it is outside the cell.
    private static func cellRange(_ range: JSONValue, in document: CompletionDocument) -> Range<Int>? {
        guard let startLine = range["start"]?["line"]?.intValue, let startCharacter = range["start"]?["character"]?.intValue,
              let endLine = range["end"]?["line"]?.intValue, let endCharacter = range["end"]?["character"]?.intValue,
              let start = document.cellOffset(line: startLine, character: startCharacter),
              let end = document.cellOffset(line: endLine, character: endCharacter), start <= end else { return nil }
        return start..<end
    }

    /// A readable signature from an LSP item's label and detail (its type or result).
    static func signature(label: String, detail: String, type: String) -> String {
        if detail.isEmpty || type == "keyword" { return label }
        switch type {
        case "function", "method", "constructor": return "\(label) -> \(detail)"
        case "variable", "property", "field", "constant": return "\(label): \(detail)"
        default: return label == detail ? label : "\(label) (\(detail))"
        }
    }

    /// Jupyter's kind name for an LSP `CompletionItemKind`.
    static func kind(_ value: Int) -> String {
        let names = ["text", "method", "function", "constructor", "field", "variable", "class", "interface",
                     "module", "property", "unit", "value", "enum", "keyword", "snippet", "color", "file",
                     "reference", "folder", "enum member", "constant", "struct", "event", "operator", "type parameter"]
        return (1...names.count).contains(value) ? names[value - 1] : "text"
    }

    /// True when an inspection describes a type (its initialisers are then worth listing).
    static func describesType(_ inspection: Inspection) -> Bool {
        ["struct ", "class ", "final class ", "enum ", "actor ", "protocol "].contains { inspection.plainText.hasPrefix($0) }
    }

    /// The overloads a completion right after a call's `(` offers (`(contentsOf: String)
    /// throws -> Model`), as `Model(contentsOf: String) throws -> Model`, or nil.
    static func inspection(fromCallItems result: JSONValue, callee: String) -> Inspection? {
        let items = (result.arrayValue ?? result["items"]?.arrayValue ?? []).filter { item in
            ["function", "method", "constructor"].contains(kind(item["kind"]?.intValue ?? 0))
                && (item["label"]?.stringValue ?? "").hasPrefix("(")
        }
        guard !items.isEmpty else { return nil }
        var plain: [String] = [], markdown: [String] = []
        for item in items.prefix(8) {
            let type = kind(item["kind"]?.intValue ?? 0)
            let signature = callee + Self.signature(label: item["label"]?.stringValue ?? "", detail: item["detail"]?.stringValue ?? "", type: type)
            let documentation = item["documentation"]?["value"]?.stringValue ?? item["documentation"]?.stringValue ?? ""
            plain.append(documentation.isEmpty ? signature : signature + "\n\n" + documentation)
            markdown.append("```swift\n\(signature)\n```" + (documentation.isEmpty ? "" : "\n\n" + documentation))
        }
        return Inspection(plainText: plain.joined(separator: "\n\n"), markdown: markdown.joined(separator: "\n\n"))
    }

    /// The overloads of `name` in a completion answer, with their documentation, or nil.
    static func inspection(fromCompletion result: JSONValue, name: String) -> Inspection? {
        let items = (result.arrayValue ?? result["items"]?.arrayValue ?? []).filter { item in
            let label = item["filterText"]?.stringValue ?? item["label"]?.stringValue ?? ""
            return label.prefix { $0 != "(" } == name
        }
        guard !items.isEmpty else { return nil }
        var plain: [String] = [], markdown: [String] = []
        for item in items.prefix(8) {
            let type = kind(item["kind"]?.intValue ?? 0)
            let signature = Self.signature(label: item["label"]?.stringValue ?? name, detail: item["detail"]?.stringValue ?? "", type: type)
            let documentation = item["documentation"]?["value"]?.stringValue ?? item["documentation"]?.stringValue ?? ""
            plain.append(documentation.isEmpty ? signature : signature + "\n\n" + documentation)
            markdown.append("```swift\n\(signature)\n```" + (documentation.isEmpty ? "" : "\n\n" + documentation))
        }
        return Inspection(plainText: plain.joined(separator: "\n\n"), markdown: markdown.joined(separator: "\n\n"))
    }

    /// The inspection in a hover answer, or nil when it has no text.
    static func inspection(fromHover result: JSONValue) -> Inspection? {
        let contents = result["contents"] ?? .null
        let parts: [String]
        switch contents {
        case .string(let text): parts = [text]
        case .array(let values): parts = values.compactMap { $0.stringValue ?? $0["value"]?.stringValue }
        default: parts = [contents["value"]?.stringValue].compactMap { $0 }
        }
        let markdown = parts.joined(separator: "\n\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !markdown.isEmpty else { return nil }
        let plain = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("```") }.joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return Inspection(plainText: plain, markdown: markdown)
    }
}
