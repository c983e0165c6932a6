import CellSource
import GeneratedNames

/// Writes the Swift module source for one cell.
///
/// Layout of the generated file:
/// 1. `import Benchbook`, imports written in earlier cells, and the imports of earlier
///    cells' declarations (see ``SymbolTable``);
/// 2. the cell's declarations and bindings at module scope, each preceded by a
///    `#sourceLocation` directive and indented to its original column, so compiler
///    diagnostics point at the user's line and column; statements that need a local scope
///    become a ``LocalScope`` closure with a module variable for each name they bind;
/// 3. an exported entry point that initialises the bindings and runs the statements and
///    scopes in their original order, and shows the value of a last bare expression.
///
/// Every name it writes that the notebook library must provide, or that it invents, comes
/// from ``RuntimeNames``.
public struct CellCodeGenerator: Sendable {

    /// The module name, for example `Cell12`.
    public var module: String
    /// The prompt label used as the file name in diagnostics, for example `In[7]`.
    public var cellLabel: String
    /// The sequence number passed to the runtime.
    public var cellNumber: Int
    /// Whether the cell is compiled with `-O` (the runtime records it with benchmarks).
    public var optimized = false

    /// The C symbol of the entry point the host calls.
    public var entrySymbol: String { RuntimeNames.entrySymbol(module: module) }

    /// The file name of the generated line that declares the module variable `name` (a
    /// scope's storage or a name it binds), so a diagnostic about it names the variable
    /// (see ``OpaqueTypes``). It ends in `.swift` like generated code, so a trap there is
    /// placed at the user's line that read the variable (see ``CrashReport``).
    static func exportFile(_ name: String) -> String { "__bb_export_" + name + ".swift" }

    /// Types the generated code must write, found by a compile that failed without them
    /// (see ``OpaqueTypes``).
    public struct Fixes: Sendable, Equatable {
        /// Types to write for module variables, by name.
        public var annotations: [String: String] = [:]
        /// Bindings (by their first name) to run as a local scope: a tuple pattern cannot
        /// be given an opaque type, its names one by one can.
        public var bindingsAsScopes: Set<String> = []

        public var isEmpty: Bool { annotations.isEmpty && bindingsAsScopes.isEmpty }

        /// No fixes.
        public init() {}
    }

    /// Generates the module source.
    /// - Parameters:
    ///   - analysis: the cell's analysis.
    ///   - imports: import lines for earlier cells' names and user imports.
    ///   - magic: a timing magic; its body (the cell's statements) becomes one closure
    ///     that the notebook library's `Benchmark` runs.
    ///   - fixes: types to write for variables whose type Swift cannot infer at module
    ///     scope (an opaque `some P` from another declaration).
    public func source(for analysis: CellAnalysis, imports: [String], magic: CellMagic? = nil,
                       fixes: Fixes = Fixes()) -> String {
        let annotations = fixes.annotations
        var out: [String] = ["import Benchbook"] + imports
        out.append("enum \(RuntimeNames.moduleMarker) {}")
        var entry: [String] = []
        for item in analysis.items {
            switch item {
            case .import(let text):
                out.append(text)
            case .declaration(let snippet, _), .moduleWideDeclaration(let snippet):
                out.append(located(snippet))
            case .binding(let binding) where !fixes.bindingsAsScopes.contains(binding.names.first ?? ""):
                out.append(located(annotated(binding, annotations)))
                entry += binding.names.map { countBinding($0, line: binding.snippet.start.line) }
            case .binding, .localScope:
                let scope = Self.scope(of: item)
                // Named after its first variable, so a fix found for it still applies when
                // a binding before it becomes a scope in the next round.
                let storage = RuntimeNames.scopePrefix + (scope.exports.first?.name ?? "")
                out += declarations(of: scope, storage: storage, annotations: annotations)
                let run = scope.isAsync ? "try await \(storage).\(RuntimeNames.scopeRunAsync)()" : "try \(storage).\(RuntimeNames.scopeRun)()"
                entry.append(run)
                entry += scope.exports.map { countBinding($0.name, line: $0.line) }
            case .unsetBinding(let binding):
                out += declarations(of: binding)
                entry.append("\(RuntimeNames.context).\(RuntimeNames.bound)()")
            case .statement(let snippet):
                entry.append(located(snippet))
            case .result(let snippet):
                // A closure keeps the expression on its own lines, at its own columns.
                let call = analysis.hasTopLevelAwait ? "try await { () async throws in" : "try { () throws in"
                entry.append(header("\(present)(\(call)", line: snippet.start.line))
                entry.append(located(snippet))
                entry.append("}())")
            }
        }
        if let magic { entry = timed(entry, magic: magic, showsResult: analysis.items.contains(where: \.isResult)) }
        let bodyKind = analysis.hasTopLevelAwait ? "\(RuntimeNames.context) async throws in" : "\(RuntimeNames.context) throws in"
        out.append("@_cdecl(\"\(entrySymbol)\")")
        out.append("public func \(RuntimeNames.entryFunction)() -> Int32 {")
        let firstLine = analysis.items.lazy.compactMap(\.firstLine).first ?? 1
        out.append(header("return \(runtime).\(RuntimeNames.run)(cell: \(cellNumber), optimization: \(RuntimeNames.optimization(optimized))) { \(bodyKind)",
                          line: firstLine))
        out += entry
        out.append("}")
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }

    /// A local scope, or a binding run as one.
    ///
    /// Its storage's declaration opens the closure (see ``header(_:line:)``) at the line of
    /// the scope's first statement, where a compile error about its type is reported
    /// (see ``OpaqueTypes``).
    private static func scope(of item: CellItem) -> LocalScope {
        switch item {
        case .localScope(let scope): scope
        case .binding(let binding): LocalScope(statements: [binding.snippet], exports: binding.exports, isAsync: false)
        default: LocalScope(statements: [], exports: [], isAsync: false)
        }
    }

    /// The scope's closure and a module variable for each name it binds:
    /// `let __bb_scope_1 = _BenchbookScope("In[3]") { () throws in … return (a, b) }`,
    /// `let a = __bb_scope_1.result.0`.
    private func declarations(of scope: LocalScope, storage: String, annotations: [String: String]) -> [String] {
        let signature = scope.isAsync ? "() async throws in" : "() throws in"
        let storageType = annotations[storage].map { ": " + $0 } ?? ""
        var lines = [header("let \(storage)\(storageType) = \(RuntimeNames.scopeType)(\(Self.literal(cellLabel))) { \(signature)",
                            line: scope.firstLine)]
        lines += scope.statements.map(located)
        let names = scope.exports.map { RuntimeNames.escaped($0.name) }
        let value = names.count == 1 ? names[0] : "(" + names.joined(separator: ", ") + ")"
        lines.append("return " + (scope.exports.contains(where: \.isAsyncLet) ? "await " : "") + value)
        lines.append("}")
        for (index, export) in scope.exports.enumerated() {
            let type = (export.type ?? annotations[export.name]).map { ": " + $0 } ?? ""
            let element = scope.exports.count == 1 ? "" : ".\(index)"
            lines.append("#sourceLocation(file: \"\(Self.exportFile(export.name))\", line: \(export.line))")
            lines.append("\(export.introducer) \(RuntimeNames.escaped(export.name))\(type) = \(storage).\(RuntimeNames.scopeResult)\(element)")
            lines.append("#sourceLocation()")
        }
        return lines
    }

    /// The storage and the variable for a name declared without a value.
    private func declarations(of binding: UnsetBinding) -> [String] {
        let storage = RuntimeNames.unsetPrefix + binding.name
        let value = "\(storage).\(RuntimeNames.unsetValue)"
        return [
            "#sourceLocation(file: \"\(cellLabel)\", line: \(binding.position.line))",
            "let \(storage) = \(RuntimeNames.unsetType)<\(binding.type)>(\(Self.literal(binding.name)), cell: \(Self.literal(cellLabel)), isConstant: \(binding.isConstant))",
            "var \(RuntimeNames.escaped(binding.name)): \(binding.type) { get { \(value) } set { \(value) = newValue } }",
            "#sourceLocation()",
        ]
    }

    /// A binding with the type written after its pattern when one is given for its name.
    private func annotated(_ binding: ModuleBinding, _ annotations: [String: String]) -> SourceSnippet {
        guard let (offset, text) = annotation(binding, annotations) else { return binding.snippet }
        var bytes = Array(binding.snippet.text.utf8)
        bytes.insert(contentsOf: Array(text.utf8), at: offset)
        var snippet = binding.snippet
        snippet.text = String(decoding: bytes, as: UTF8.self)
        return snippet
    }

    private func annotation(_ binding: ModuleBinding, _ annotations: [String: String]) -> (offset: Int, text: String)? {
        guard let offset = binding.annotationOffset, let name = binding.names.first, let type = annotations[name],
              offset <= binding.snippet.text.utf8.count else { return nil }
        return (offset, ": " + type)
    }

    /// The insertions the annotations make in the user's text, to map diagnostic columns.
    public func insertions(for analysis: CellAnalysis, fixes: Fixes) -> [Insertion] {
        analysis.items.compactMap { item -> Insertion? in
            guard case .binding(let binding) = item, !fixes.bindingsAsScopes.contains(binding.names.first ?? ""),
                  let (offset, text) = annotation(binding, fixes.annotations) else { return nil }
            let before = binding.snippet.text.utf8.prefix(offset)
            let lineBreaks = before.filter { $0 == UInt8(ascii: "\n") }.count
            let column = lineBreaks == 0
                ? binding.snippet.start.column + before.count
                : before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { before.distance(from: before.startIndex, to: $0) } ?? 0)
            return Insertion(position: SourcePosition(line: binding.snippet.start.line + lineBreaks, column: column),
                             length: text.utf8.count)
        }
    }

    /// Wraps a cell body in the closure a timing magic measures. The body's last
    /// expression becomes the closure's value (shown for `%time`, ignored otherwise).
    private func timed(_ body: [String], magic: CellMagic, showsResult: Bool) -> [String] {
        // The shown result's line (after its location header) returns the value instead.
        let presentCall = "\n" + present + "("
        let measured = body.map { element -> String in
            guard element.hasPrefix("#sourceLocation("), let call = element.range(of: presentCall) else {
                return element == "}())" ? "}()" : element
            }
            return element.replacingCharacters(in: call, with: "\nreturn ")
        }
        // `%timeit` and `%benchmark` ignore the value.
        let ignoringValue = measured.map { $0.replacing("\nreturn try {", with: "\n_ = try {") }
        let timed = RuntimeNames.timedValue
        let line = body.lazy.compactMap { $0.firstMatch(of: /#sourceLocation\(file: "[^"]*", line: ([0-9]+)\)/).map { Int($0.1) ?? 1 } }.first ?? 1
        switch magic {
        case .time:
            var lines = [header("let \(timed) = try \(RuntimeNames.timeCall) { () throws in", line: line)] + measured
            lines.append("}")
            lines.append("print(\(timed).timing)")
            if showsResult { lines.append("\(present)(\(timed).value)") }
            return lines
        case .timeit:
            // IPython's line first, then the result with percentiles.
            return [header("let \(timed) = try \(RuntimeNames.timeitCall)(\(Self.literal(cellLabel))) { () throws in", line: line)]
                + ignoringValue + ["}", "print(\(timed).\(RuntimeNames.perLoopSummary))", "\(present)(\(timed))"]
        case .benchmark(let name):
            return [header("\(present)(try \(RuntimeNames.benchmarkType)(\(Self.literal(name))).\(RuntimeNames.recordCall) { () throws in", line: line)]
                + ignoringValue + ["})"]
        case .optimize, .cache:
            // Served by the engine without compiling (`CellEngine.setOptimization`, `showCache`).
            return body
        }
    }

    private var runtime: String { RuntimeNames.cellRuntime }
    private var present: String { "\(RuntimeNames.context).\(RuntimeNames.present)" }

    /// The statements that touch a binding (so it initialises in order) and count it, at
    /// the binding's line (a diagnostic about them names it). The touch borrows the value,
    /// so a noncopyable (`~Copyable`) variable is neither copied nor consumed.
    private func countBinding(_ name: String, line: Int) -> String {
        header("withExtendedLifetime(\(RuntimeNames.escaped(name))) {}; \(RuntimeNames.context).\(RuntimeNames.bound)()", line: line)
    }

    /// A Swift string literal for any text.
    static func literal(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }

    /// A generated line that opens a closure, placed at a line of the cell. The closure's
    /// debug information then names the cell, as the code in it does: the optimiser
    /// gives code it moves (a bounds check hoisted out of a loop) the closure's file with
    /// the user's line and column, so a trap there still names the cell and line.
    private func header(_ line: String, line number: Int) -> String {
        "#sourceLocation(file: \"\(cellLabel)\", line: \(number))\n" + line + "\n#sourceLocation()"
    }

    /// The snippet on its own lines at its original line and column, followed by a
    /// directive that returns to generated-code locations.
    private func located(_ snippet: SourceSnippet) -> String {
        "#sourceLocation(file: \"\(cellLabel)\", line: \(snippet.start.line))\n"
            + String(repeating: " ", count: max(0, snippet.start.column - 1)) + snippet.text
            + "\n#sourceLocation()"
    }
}
