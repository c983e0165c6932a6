import Foundation
import CellEngine
import JSONCore
import SystemSupport

/// The public API of the notebook library and of the standard library, for completion
/// and inspection without SourceKit-LSP.
///
/// Read from an index file that the build writes into the library's modules directory
/// (`benchbook-kernel --write-completion-index`, run by `make build`): reading it costs a
/// fraction of a second, so the first completion after a kernel starts can wait for it.
/// Without that file the API is extracted with `swift-symbolgraph-extract` in the
/// background (seconds of processor time), and completion answers without it meanwhile.
///
/// Thread rules: loading runs on a background queue; readers on any thread see either
/// nothing or the whole table (`lock` guards it).
final class LibraryAPI: @unchecked Sendable {
    /// One public declaration.
    struct Symbol: Sendable, Equatable, Codable {
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

    /// The API as the index file holds it.
    struct Index: Codable, Equatable {
        /// The file's layout version; another version is ignored (extracted again).
        var format = Index.currentFormat
        /// Top-level declarations: the library's first, then the standard library's.
        var topLevel: [Symbol] = []
        /// Members by their type's name.
        var members: [String: [Symbol]] = [:]

        static let currentFormat = 1
    }

    /// The index file's name inside the library's modules directory.
    static let indexFileName = EngineConfiguration.completionIndexName
    /// The standard library's module, indexed after the notebook library's.
    static let standardLibrary = "Swift"

    private let lock = NSLock()
    private var index = Index()
    private var started = false
    private let loaded = DispatchGroup()

    /// Creates an empty table (``loadInBackground`` fills it), or one holding `index`.
    init(index: Index = Index()) {
        self.index = index
    }

    /// Top-level declarations (types, functions, globals); empty until loaded.
    var topLevelSymbols: [Symbol] {
        lock.lock()
        defer { lock.unlock() }
        return index.topLevel
    }

    /// The members of a library type, by its name.
    func members(of type: String) -> [Symbol] {
        lock.lock()
        defer { lock.unlock() }
        return index.members[type] ?? []
    }

    /// Waits until a load that reads the index file has finished, at most `seconds`.
    /// Returns at once when nothing is loading.
    func waitForIndex(seconds: Double) {
        _ = loaded.wait(timeout: .now() + seconds)
    }

    /// Starts loading the API in the background, once: from the index file when the build
    /// wrote one (then ``waitForIndex(seconds:)`` waits for it), else by extraction.
    /// - Returns: true when the index file is being read (or was), false when the API is
    ///   extracted (or nothing was started because extraction is not wanted yet).
    @discardableResult
    func loadInBackground(modulesDirectory: URL, toolsDirectory: URL, outputDirectory: URL, extraArguments: [String],
                          extracting: Bool = true) -> Bool {
        let file = modulesDirectory.appendingPathComponent(Self.indexFileName)
        let hasIndex = FileManager.default.fileExists(atPath: file.path)
        lock.lock()
        let first = !started && (hasIndex || extracting)
        if first { started = true; if hasIndex { loaded.enter() } }
        lock.unlock()
        guard first else { return hasIndex }
        DispatchQueue.global(qos: hasIndex ? .userInitiated : .utility).async { [self] in
            var found = hasIndex ? Self.readIndex(file) : nil
            if hasIndex { Trace.note(found == nil ? "completion index unreadable: extracting the API" : "completion index read") }
            if found == nil {
                found = Self.extract(modulesDirectory: modulesDirectory, toolsDirectory: toolsDirectory,
                                     outputDirectory: outputDirectory, extraArguments: extraArguments)
            }
            lock.lock()
            index = found!
            lock.unlock()
            if hasIndex { loaded.leave() }
        }
        return hasIndex
    }

    /// The index in `file`, or nil when it is missing, damaged or of another format.
    static func readIndex(_ file: URL) -> Index? {
        guard let data = try? Data(contentsOf: file), let index = try? JSONDecoder().decode(Index.self, from: data),
              index.format == Index.currentFormat else { return nil }
        return index
    }

    /// Extracts the API of the notebook library's modules and of the standard library.
    static func extract(modulesDirectory: URL, toolsDirectory: URL, outputDirectory: URL, extraArguments: [String]) -> Index {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: modulesDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".swiftmodule") }
            .map { String($0.dropLast(".swiftmodule".count)) }
            .filter(Self.isNotebookModule)
        try? FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        var found = Index()
        for module in names.sorted() + [standardLibrary] {
            let arguments = ["-module-name", module, "-I", modulesDirectory.path, "-target", EngineConfiguration.targetTriple,
                             "-minimum-access-level", "public", "-output-dir", outputDirectory.path] + extraArguments
            let extract = toolsDirectory.appendingPathComponent("swift-symbolgraph-extract").path
            _ = try? ChildProcess.run(ChildProcess.Configuration(executable: extract, arguments: arguments))
            let file = outputDirectory.appendingPathComponent("\(module).symbols.json")
            defer { try? FileManager.default.removeItem(at: file) }
            guard let data = try? Data(contentsOf: file), let graph = try? JSONValue(parsing: data) else { continue }
            // The standard library's comments would make the index ten times larger; its
            // declarations say enough in a completion list.
            let documented = module != standardLibrary
            for entry in graph["symbols"]?.arrayValue ?? [] {
                guard let path = entry["pathComponents"]?.arrayValue?.compactMap(\.stringValue), let title = path.last,
                      !path.contains(where: { $0.hasPrefix("_") }) else { continue }
                let symbol = Symbol(
                    title: title, kind: Self.kind(of: entry["kind"]?["identifier"]?.stringValue ?? ""),
                    declaration: (entry["declarationFragments"]?.arrayValue ?? []).compactMap { $0["spelling"]?.stringValue }.joined(),
                    documentation: documented
                        ? (entry["docComment"]?["lines"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined(separator: "\n")
                        : "")
                if path.count == 1 { found.topLevel.append(symbol) } else if path.count == 2 { found.members[path[0], default: []].append(symbol) }
            }
        }
        return found
    }

    /// Extracts the API and writes it as the index file of `modulesDirectory` (atomically).
    /// - Throws: when the file cannot be written.
    static func writeIndex(modulesDirectory: URL, toolsDirectory: URL, outputDirectory: URL, extraArguments: [String]) throws -> Index {
        let index = extract(modulesDirectory: modulesDirectory, toolsDirectory: toolsDirectory,
                            outputDirectory: outputDirectory, extraArguments: extraArguments)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(index).write(to: modulesDirectory.appendingPathComponent(indexFileName), options: .atomic)
        return index
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
