import CellSource
import HostProtocol

/// Writes the Swift module source for one cell.
///
/// Layout of the generated file:
/// 1. `import Benchbook`, imports written in earlier cells, and scoped
///    `@testable import <kind> CellK.name` lines for the newest definition of each name used;
/// 2. the cell's declarations and bindings at module scope, each preceded by a
///    `#sourceLocation` directive and indented to its original column, so compiler
///    diagnostics point at the user's line and column;
/// 3. an exported entry point that initialises the bindings and runs the statements in
///    their original order, and shows the value of a last bare expression.
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

    /// The C symbol of the entry point the host calls.
    public var entrySymbol: String { RuntimeNames.entrySymbol(module: module) }

    /// Generates the module source.
    /// - Parameters:
    ///   - analysis: the cell's analysis.
    ///   - imports: import lines for earlier cells' names and user imports.
    ///   - magic: a timing magic; its body (the cell's statements) becomes one closure
    ///     that the notebook library's `Benchmark` runs.
    public func source(for analysis: CellAnalysis, imports: [String], magic: CellMagic? = nil) -> String {
        var out: [String] = ["import Benchbook"] + imports
        out.append("enum \(RuntimeNames.moduleMarker) {}")
        var entry: [String] = []
        var evaluatedCount = 0
        for item in analysis.items {
            switch item {
            case .import(let text):
                out.append(text)
            case .declaration(let snippet, _, _), .moduleWideDeclaration(let snippet, _):
                out.append(located(snippet))
            case .plainBinding(let snippet, let names):
                out.append(located(snippet))
                entry += names.map(countBinding)
            case .evaluatedBinding(let binding):
                evaluatedCount += 1
                let storage = RuntimeNames.evaluatedValuePrefix + String(evaluatedCount)
                let signature = binding.isAsync ? "() async throws" : "() throws"
                let result = binding.type.map { " -> \($0)" } ?? ""
                out.append("let \(storage) = \(runtime).\(RuntimeNames.evaluate)(cell: \(cellNumber)) { \(signature)\(result) in")
                out.append(located(binding.value))
                out.append("}")
                let annotation = binding.type.map { ": \($0)" } ?? ""
                out.append("\(binding.introducer) \(binding.pattern)\(annotation) = try! \(storage).get()")
                entry.append("_ = try \(storage).get()")
                entry += binding.names.map(countBinding)
            case .statement(let snippet):
                entry.append(located(snippet))
            case .result(let snippet):
                // A closure keeps the expression on its own lines, at its own columns.
                let call = analysis.hasTopLevelAwait ? "try await { () async throws in" : "try { () throws in"
                entry.append("\(present)(\(call)")
                entry.append(located(snippet))
                entry.append("}())")
            }
        }
        if let magic { entry = timed(entry, magic: magic, showsResult: analysis.items.contains(where: \.isResult)) }
        let bodyKind = analysis.hasTopLevelAwait ? "\(RuntimeNames.context) async throws in" : "\(RuntimeNames.context) throws in"
        out.append("@_cdecl(\"\(entrySymbol)\")")
        out.append("public func \(RuntimeNames.entryFunction)() -> Int32 {")
        out.append("return \(runtime).\(RuntimeNames.run)(cell: \(cellNumber)) { \(bodyKind)")
        out += entry
        out.append("}")
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }

    /// Wraps a cell body in the closure a timing magic measures. The body's last
    /// expression becomes the closure's value (shown for `%time`, ignored otherwise).
    private func timed(_ body: [String], magic: CellMagic, showsResult: Bool) -> [String] {
        let presentCall = present + "("
        let measured = body.map { line -> String in
            if line.hasPrefix(presentCall) { return "return " + line.dropFirst(presentCall.count) }
            return line == "}())" ? "}()" : line
        }
        let timed = RuntimeNames.timedValue
        switch magic {
        case .time:
            var lines = ["let \(timed) = try \(RuntimeNames.timeCall) { () throws in"] + measured
            lines.append("}")
            lines.append("print(\(timed).timing)")
            if showsResult { lines.append("\(present)(\(timed).value)") }
            return lines
        case .timeit:
            // IPython's line first, then the result with percentiles.
            return ["let \(timed) = try \(RuntimeNames.timeitCall)(\(Self.literal(cellLabel))) { () throws in"]
                + measured.map { $0.hasPrefix("return ") ? "_ = " + $0.dropFirst("return ".count) : $0 }
                + ["}", "print(\(timed).\(RuntimeNames.perLoopSummary))", "\(present)(\(timed))"]
        case .benchmark(let name):
            return ["\(present)(try \(RuntimeNames.benchmarkType)(\(Self.literal(name))).\(RuntimeNames.recordCall) { () throws in"]
                + measured.map { $0.hasPrefix("return ") ? "_ = " + $0.dropFirst("return ".count) : $0 } + ["})"]
        }
    }

    private var runtime: String { RuntimeNames.cellRuntime }
    private var present: String { "\(RuntimeNames.context).\(RuntimeNames.present)" }

    /// The statements that touch a binding (so it initialises in order) and count it.
    private func countBinding(_ name: String) -> String {
        "_ = `\(name)`; \(RuntimeNames.context).\(RuntimeNames.bound)()"
    }

    /// A Swift string literal for any text.
    static func literal(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }

    /// The snippet on its own lines at its original line and column, followed by a
    /// directive that returns to generated-code locations.
    private func located(_ snippet: SourceSnippet) -> String {
        "#sourceLocation(file: \"\(cellLabel)\", line: \(snippet.start.line))\n"
            + String(repeating: " ", count: max(0, snippet.start.column - 1)) + snippet.text
            + "\n#sourceLocation()"
    }
}
