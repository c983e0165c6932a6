import CellEngine
import Foundation

/// Answers without SourceKit-LSP: earlier cells' names, the cell's own names, the
/// notebook library's public API (read in the background from its modules) and Swift
/// keywords. Member completion works after a library type's name (`Tensor.`), not after
/// a value, whose type only the compiler knows.
extension CodeCompletion {
    static let keywords = [
        "as", "async", "await", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else",
        "enum", "extension", "false", "for", "func", "guard", "if", "import", "in", "init", "inout", "is", "let",
        "nil", "private", "protocol", "public", "repeat", "return", "self", "static", "struct", "switch", "throw",
        "throws", "true", "try", "typealias", "var", "where", "while",
    ]

    func fallbackList(code: String, cursor: Int, context: CompletionContext) -> CompletionList {
        // Reading the build's index file takes a fraction of a second: worth waiting for
        // within JupyterLab's 1,000 ms (an extraction is not).
        if startLibraryLoad(context) { libraryAPI.waitForIndex(seconds: 0.5) }
        let start = CursorScan.identifierStart(in: code, cursor: cursor)
        let typed = CursorScan.text(of: start..<cursor, in: code)
        let scalars = Array(code.unicodeScalars)
        var candidates: [CompletionMatch] = []
        if start > 0, scalars[start - 1] == "." {
            let receiverStart = CursorScan.identifierStart(in: code, cursor: start - 1)
            let receiver = CursorScan.text(of: receiverStart..<(start - 1), in: code)
            candidates = libraryAPI.members(of: receiver).map(Self.match)
        } else {
            let defined = engine.analyze(code)?.definedNames ?? []
            candidates = defined.sorted().map { CompletionMatch(text: $0, type: "variable", signature: $0) }
            candidates += context.names.map {
                CompletionMatch(text: $0.name, type: Self.type(of: $0.kind), signature: "\($0.kind.rawValue) \($0.name) (\($0.cellLabel))")
            }
            candidates += libraryAPI.topLevelSymbols.map(Self.match)
            candidates += Self.keywords.map { CompletionMatch(text: $0, type: "keyword", signature: $0) }
        }
        var seen = Set<String>()
        let matches = candidates.filter {
            $0.text.lowercased().hasPrefix(typed.lowercased()) && $0.text != typed && seen.insert($0.text).inserted
        }
        return CompletionList(matches: Array(matches.prefix(Self.matchLimit)), cursorStart: start, cursorEnd: cursor,
                              source: .notebookNames)
    }

    func fallbackInspection(name: String, context: CompletionContext) -> Inspection? {
        if startLibraryLoad(context) { libraryAPI.waitForIndex(seconds: 0.5) }
        if let defined = context.names.first(where: { $0.name == name }) {
            let text = "\(defined.kind.rawValue) \(defined.name), defined in \(defined.cellLabel)"
            return Inspection(plainText: text, markdown: "`\(defined.kind.rawValue) \(defined.name)`, defined in \(defined.cellLabel)")
        }
        guard let symbol = libraryAPI.topLevelSymbols.first(where: { $0.baseName == name }) else { return nil }
        let documentation = symbol.documentation.isEmpty ? "" : "\n\n" + symbol.documentation
        return Inspection(plainText: symbol.declaration + documentation,
                          markdown: "```swift\n\(symbol.declaration)\n```" + documentation)
    }

    /// Reads the API for the fallback: at once from the build's index file, else by
    /// extraction a few seconds after the kernel's first cell (once per kernel, at low
    /// priority, while the student reads), so the first Tab that finds no language server
    /// (none started yet, or stopped when idle) lists the library's names too. Call it from
    /// the shell thread after a cell.
    /// - Parameter seconds: the delay after the cell when there is no index file.
    public func loadLibraryAPILater(after seconds: Double = 5) {
        guard !libraryLoadScheduled else { return }
        libraryLoadScheduled = true
        let context = engine.completionContext()
        guard !startLibraryLoad(context, extracting: false) else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + seconds) { [self] in
            startLibraryLoad(context)
        }
    }

    /// Starts loading the API once (see ``LibraryAPI/loadInBackground``).
    /// - Returns: true when it comes from the build's index file.
    @discardableResult
    func startLibraryLoad(_ context: CompletionContext, extracting: Bool = true) -> Bool {
        libraryAPI.loadInBackground(modulesDirectory: context.modulesDirectory, toolsDirectory: context.toolsDirectory,
                                    outputDirectory: context.workDirectory.appendingPathComponent("symbolgraph"),
                                    extraArguments: context.moduleMapFlags, extracting: extracting)
    }

    /// Extracts the notebook library's and the standard library's API and writes the index
    /// file that kernels read at start (`benchbook-kernel --write-completion-index`).
    /// - Parameter engine: an engine configured for the build whose API is indexed.
    /// - Returns: the file written, the number of top-level names and of types with members.
    /// - Throws: when the file cannot be written.
    public static func writeIndex(for engine: CellEngine) throws -> (file: URL, names: Int, types: Int) {
        let context = engine.completionContext()
        let index = try LibraryAPI.writeIndex(modulesDirectory: context.modulesDirectory, toolsDirectory: context.toolsDirectory,
                                              outputDirectory: context.workDirectory.appendingPathComponent("symbolgraph"),
                                              extraArguments: context.moduleMapFlags)
        return (context.modulesDirectory.appendingPathComponent(LibraryAPI.indexFileName), index.topLevel.count, index.members.count)
    }

    private static func match(_ symbol: LibraryAPI.Symbol) -> CompletionMatch {
        CompletionMatch(text: symbol.baseName, type: symbol.kind, signature: symbol.declaration)
    }

    private static func type(of kind: DeclarationKind) -> String {
        switch kind {
        case .var: "variable"
        case .func: "function"
        case .protocol: "interface"
        case .typealias: "type"
        default: kind.rawValue
        }
    }
}
