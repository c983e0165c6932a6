import Foundation
import CellEngine
import SystemSupport

/// The notebook library's public API, read once from its modules with
/// `swift-symbolgraph-extract`, for completion and inspection without SourceKit-LSP.
///
/// Thread rules: ``load(modulesDirectory:toolsDirectory:outputDirectory:)`` runs on a
/// background queue; readers on any thread see either nothing or the whole table
/// (`lock` guards it).
final class LibraryAPI: @unchecked Sendable {
    /// One public declaration.
    struct Symbol: Sendable, Equatable {
        /// Its name, for example `softmax(alongAxis:)`.
        var title: String
        /// The LSP-style kind used in Jupyter's type metadata (`function`, `struct`, ...).
        var kind: String
        /// The declaration as written, for example `func clearOutput(wait: Bool = false)`.
        var declaration: String
        /// The `///` comment text.
        var documentation: String

        /// The name without its argument labels.
        var baseName: String { String(title.prefix { $0 != "(" }) }
    }

    private let lock = NSLock()
    private var topLevel: [Symbol] = []
    private var members: [String: [Symbol]] = [:]
    private var started = false

    /// Top-level declarations (types, functions, globals); empty until loaded.
    var topLevelSymbols: [Symbol] {
        lock.lock()
        defer { lock.unlock() }
        return topLevel
    }

    /// The members of a library type, by its name.
    func members(of type: String) -> [Symbol] {
        lock.lock()
        defer { lock.unlock() }
        return members[type] ?? []
    }

    /// Starts reading the API in the background, once.
    func loadInBackground(modulesDirectory: URL, toolsDirectory: URL, outputDirectory: URL, extraArguments: [String]) {
        lock.lock()
        let first = !started
        started = true
        lock.unlock()
        guard first else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            load(modulesDirectory: modulesDirectory, toolsDirectory: toolsDirectory,
                 outputDirectory: outputDirectory, extraArguments: extraArguments)
        }
    }

    private func load(modulesDirectory: URL, toolsDirectory: URL, outputDirectory: URL, extraArguments: [String]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: modulesDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".swiftmodule") }
            .map { String($0.dropLast(".swiftmodule".count)) }
            .filter(Self.isNotebookModule)
        try? FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        var foundTop: [Symbol] = [], foundMembers: [String: [Symbol]] = [:]
        for module in names.sorted() {
            let arguments = ["-module-name", module, "-I", modulesDirectory.path, "-target", EngineConfiguration.targetTriple,
                             "-minimum-access-level", "public", "-output-dir", outputDirectory.path] + extraArguments
            let extract = toolsDirectory.appendingPathComponent("swift-symbolgraph-extract").path
            _ = try? ChildProcess.run(ChildProcess.Configuration(executable: extract, arguments: arguments))
            let file = outputDirectory.appendingPathComponent("\(module).symbols.json")
            guard let data = try? Data(contentsOf: file), let graph = try? JSONDecoder().decode(JSONValue.self, from: data) else { continue }
            for entry in graph["symbols"]?.arrayValue ?? [] {
                guard let path = entry["pathComponents"]?.arrayValue?.compactMap(\.stringValue), let title = path.last,
                      !title.hasPrefix("_") else { continue }
                let symbol = Symbol(
                    title: title, kind: Self.kind(of: entry["kind"]?["identifier"]?.stringValue ?? ""),
                    declaration: (entry["declarationFragments"]?.arrayValue ?? []).compactMap { $0["spelling"]?.stringValue }.joined(),
                    documentation: (entry["docComment"]?["lines"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined(separator: "\n"))
                if path.count == 1 { foundTop.append(symbol) } else if path.count == 2 { foundMembers[path[0], default: []].append(symbol) }
            }
        }
        lock.lock()
        topLevel = foundTop
        members = foundMembers
        lock.unlock()
    }

    /// True for the modules a cell sees through `import Benchbook` (the library's role
    /// modules and the umbrella), not the kernel's own modules built beside them.
    static func isNotebookModule(_ name: String) -> Bool {
        name == "Benchbook" || (name.hasPrefix("Benchbook") && !name.hasPrefix("BenchbookKernel"))
    }

    /// Jupyter's kind for a symbol-graph kind identifier such as `swift.func`.
    static func kind(of identifier: String) -> String {
        switch identifier.replacing("swift.", with: "") {
        case "func", "func.op": "function"
        case "method", "type.method": "method"
        case "init": "constructor"
        case "property", "type.property", "var": "variable"
        case "struct": "struct"
        case "class": "class"
        case "enum": "enum"
        case "enum.case": "enum member"
        case "protocol": "interface"
        case "typealias", "associatedtype": "type"
        default: "text"
        }
    }
}
