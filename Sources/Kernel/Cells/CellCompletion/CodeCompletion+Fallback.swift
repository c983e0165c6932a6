import CellEngine
import Foundation

/// Answers without SourceKit-LSP: earlier cells' names, the cell's own names, the
/// notebook library's public API (read in the background from its modules) and Swift
/// keywords. Member completion works after a type's name (`Tensor.`) and after a value
/// whose type ``ReceiverTypes`` reads from the code that made it (`classifier.`, where an
/// earlier cell has `let classifier = try Model(...)`).
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
            var declarations = Dictionary(context.names.compactMap { name in name.source.map { (name.name, $0) } },
                                          uniquingKeysWith: { $1 })
            // The cell's own variables (`let m = try Model(...)` above the line typed).
            for name in engine.analyze(code)?.definedNames ?? [] { declarations[name] = code }
            let types = ReceiverTypes(api: libraryAPI, declarations: declarations)
            let receiver = types.receiver(ReceiverTypes.expression(before: start - 1, in: code))
            candidates = receiver.map { Self.memberMatches(Self.members(of: $0, in: libraryAPI)) } ?? []
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

    /// The members that apply to a receiver, in the order the language server's answer
    /// has them: after a type's name, its initialisers, then its static members and enum
    /// cases, then its nested types, then its instance members (unapplied references
    /// there); after a value, its instance members. Operators are left out (they are not
    /// written after a `.`); each group is in alphabetical order.
    static func members(of receiver: ReceiverTypes.Receiver, in api: LibraryAPI) -> [LibraryAPI.Symbol] {
        let isOperator = { (symbol: LibraryAPI.Symbol) in
            symbol.baseName.unicodeScalars.first.map { !($0.properties.isAlphabetic || $0 == "_") } ?? true
        }
        switch receiver {
        case .typeName(let type):
            return api.members(of: type).filter { !isOperator($0) }.enumerated()
                .sorted { (memberGroup($0.element), $0.element.baseName, $0.offset) < (memberGroup($1.element), $1.element.baseName, $1.offset) }
                .map(\.element)
        case .value(let type):
            return api.members(of: ReceiverTypes.indexKey(type))
                .filter { !isOperator($0) && memberGroup($0) == 3 }
                .enumerated().sorted { ($0.element.baseName, $0.offset) < ($1.element.baseName, $1.offset) }
                .map(\.element)
        }
    }

    /// 0 initialisers, 1 static members and enum cases, 2 nested types, 3 instance members.
    static func memberGroup(_ symbol: LibraryAPI.Symbol) -> Int {
        switch symbol.kind {
        case "constructor": 0
        case "enum member": 1
        case "struct", "class", "enum", "interface", "type": 2
        default: ReceiverTypes.isStatic(symbol) ? 1 : 3
        }
    }

    /// The members' matches, each inserting what the language server's answer would
    /// (``insertable(_:)``): a method's or initialiser's name and an opening parenthesis
    /// (`grayscale(`), or the empty call when no overload takes arguments (`count()`), so the
    /// first Tab and the later ones insert the same text.
    static func memberMatches(_ symbols: [LibraryAPI.Symbol]) -> [CompletionMatch] {
        let callable: Set<String> = ["function", "method", "constructor"]
        let takesArguments = Dictionary(grouping: symbols.filter { callable.contains($0.kind) }, by: \.baseName)
            .mapValues { overloads in overloads.contains { !$0.title.hasSuffix("()") } }
        return symbols.map { symbol in
            var match = Self.match(symbol)
            if callable.contains(symbol.kind), let arguments = takesArguments[symbol.baseName] {
                match.text = symbol.baseName + (arguments ? "(" : "()")
            }
            return match
        }
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
