/// The names generated cell code uses to reach the notebook library's cell runtime, and
/// the names the generator invents. The code generator writes them from here and the
/// library declares them (a test checks each one compiles against the library), so a
/// rename cannot silently break cells.
public enum RuntimeNames {
    /// The library's cell runtime type (`_BenchbookCell` in BenchbookCellHost).
    public static let cellRuntime = "_BenchbookCell"
    /// Its entry method: `_BenchbookCell.run(cell:body:)`.
    public static let run = "run"
    /// The type holding what a local scope binds (`_BenchbookScope` in BenchbookCellHost),
    /// its `run()`/`runAsync()` and its `result`.
    public static let scopeType = "_BenchbookScope"
    public static let scopeRun = "run"
    public static let scopeRunAsync = "runAsync"
    public static let scopeResult = "result"
    /// The type holding a variable declared without a value (`_BenchbookUnset`), and its `value`.
    public static let unsetType = "_BenchbookUnset"
    public static let unsetValue = "value"
    /// The per-cell context parameter of the generated body.
    public static let context = "__bb"
    /// `Context.present(_:)`: shows the cell's last expression.
    public static let present = "present"
    /// `Context.bound()`: counts an initialised binding.
    public static let bound = "bound"
    /// The generated entry function (exported under ``entrySymbol(module:)``).
    public static let entryFunction = "__benchbook_entry"
    /// The prefix of a local scope's storage (`__bb_scope_v`, after its first variable).
    public static let scopePrefix = "__bb_scope_"
    /// The prefix of an unset variable's storage (`__bb_unset_names`).
    public static let unsetPrefix = "__bb_unset_"
    /// The local that holds a `%time` body's measured value.
    public static let timedValue = "__bb_timed"
    /// A type every cell module declares, so a later cell can load a module with
    /// extensions or operators through a scoped import of it.
    public static let moduleMarker = "__BenchbookCellMarker"
    /// The prefix of cell module names (`Cell12`).
    public static let modulePrefix = "Cell"
    /// The timing magics' calls into the library's `Benchmark`.
    public static let timeCall = "Benchmark.time"
    public static let timeitCall = "Benchmark.timeit"
    /// `BenchmarkResult.perLoopSummary`: the line `%timeit` prints, in IPython's shape.
    public static let perLoopSummary = "perLoopSummary"
    public static let benchmarkType = "Benchmark"
    public static let recordCall = "runAndRecord"
    /// `%who`/`%whos`: `_BenchbookCell.listNames(detailed:filter:_:)` and the constructors
    /// of its entries (`_BenchbookCell.ListedName`).
    public static let listNames = "listNames"
    public static let listedValue = "value"
    public static let listedDeclaration = "declaration"
    public static let listedLost = "lost"
    public static let listedUnreadable = "unreadable"
    /// The debugger's Variables panel: `_BenchbookCell.inspectNames(_:)` takes the same
    /// entries as `listNames`; `_BenchbookCell.richInspect(_:)` shows one variable.
    public static let inspectNames = "inspectNames"
    public static let richInspect = "richInspect"
    /// The MIME type of the display `inspectNames` sends the kernel (never shown to a user).
    public static let debuggerVariablesMimeType = "application/vnd.benchbook.debugger-variables+json"

    /// The interrupt check put at the top of each loop body where an error can propagate:
    /// `_BenchbookCell.pollInterrupt()`, an inlined load of the flag, then
    /// `checkInterrupt()`, which throws `InterruptedError`.
    /// It is a declaration (`let _ = ...`), which a result builder leaves alone (an `if`
    /// there would need `buildOptional`).
    public static let throwingInterruptCheck = "let _ = try _BenchbookCell.pollInterrupt(); "
    /// The interrupt check put at the top of each loop body that cannot throw
    /// (`_BenchbookCell.pollInterruptOrStop()`, which traps).
    public static let trappingInterruptCheck = "let _ = _BenchbookCell.pollInterruptOrStop(); "
    /// `CodeOptimization`'s cases, as `_BenchbookCell.run(cell:optimization:body:)` takes them.
    public static func optimization(_ optimized: Bool) -> String { optimized ? ".optimized" : ".unoptimized" }

    /// Prefixes of every name above that a cell could declare: a cell declaring a name with
    /// one of them is refused (see `ReservedNames` in CellParsing).
    public static let reservedPrefixes = ["__bb", "__benchbook", "_Benchbook", "__Benchbook"]

    /// The reserved prefix `name` starts with, if any.
    public static func reservedPrefix(of name: String) -> String? {
        reservedPrefixes.first { name.hasPrefix($0) }
    }

    /// A declared name as generated code writes it: a keyword in backticks (so `let`,
    /// `class` or `default` can be a name), any other name as it is.
    public static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`" + name + "`" : name
    }

    /// Swift's keywords that a name must be written in backticks to be.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
        "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "_", "some", "any", "async", "discard", "consume", "copy", "each",
        // Contextual keywords: backticks around them are always allowed, and some places need them.
        "Type", "Protocol", "actor", "package", "macro", "isolated", "sending", "then", "get", "set", "willSet",
        "didSet", "mutating", "nonmutating", "convenience", "dynamic", "final", "lazy", "optional", "override",
        "required", "unowned", "weak", "indirect", "prefix", "postfix", "infix",
    ]

    /// The module name of cell number `number`.
    public static func module(_ number: Int) -> String { "\(modulePrefix)\(number)" }

    /// The C symbol of a cell module's entry point.
    public static func entrySymbol(module: String) -> String { "benchbook_\(module.lowercased())_main" }
}
