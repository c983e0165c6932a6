import Foundation

/// Every `BENCHBOOK_*` setting of the kernel's side: the kernel process and its cell parser
/// and cell compiler helpers (which inherit its environment). Read once per process, from
/// the process environment, by ``loaded``; docs/settings.md lists each variable with its
/// default and what it changes.
///
/// The kernel checks the settings when it starts (``loaded``) and stops with the
/// ``SettingsError`` when a value is not one the variable takes; code elsewhere uses
/// ``current``.
public struct KernelSettings: Sendable, Equatable {
    /// Where the user's cell cache is.
    public enum CellCache: Sendable, Equatable {
        /// `$XDG_CACHE_HOME/benchbook/cells`, else `~/.cache/benchbook/cells`.
        case standard
        /// No cache of the user's own.
        case off
        /// This directory.
        case directory(String)
    }

    /// When the cell compiler starts.
    public enum CompilerWarmUp: Sendable, Equatable {
        /// At kernel start, unless a shared (read-only) cell cache is configured.
        case auto
        /// At kernel start in any case.
        case always
        /// At the first cell that is compiled.
        case never
    }

    /// A cell's output limit as `BENCHBOOK_OUTPUT_LIMIT` gives it.
    public enum Size: Sendable, Equatable {
        /// At most this many bytes.
        case bytes(Int)
        /// No limit.
        case unlimited
    }

    /// `BENCHBOOK_SOURCEKIT_LSP`: the language server to start for completion (default: the toolchain's `sourcekit-lsp`).
    public var sourceKitLSP: String?
    /// `BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS`: idle seconds before the language server is stopped (0: never).
    public var sourceKitLSPIdleSeconds: Double
    /// `BENCHBOOK_COMPILE_SERVER`: cells compiled in the long-lived cell compiler (else by swift-frontend each time).
    public var compileServer: Bool
    /// `BENCHBOOK_LINE_TABLES`: cells compiled with line tables (`-gline-tables-only`).
    public var lineTables: Bool
    /// `BENCHBOOK_CELL_FLAGS`: extra frontend flags for every cell (space-separated).
    public var cellFlags: [String]
    /// `BENCHBOOK_CROSS_MODULE`: cross-module optimisation for cells that declare no functions.
    public var crossModule: Bool
    /// `BENCHBOOK_CELL_CACHE`: the user's cell cache.
    public var cellCache: CellCache
    /// `BENCHBOOK_CELL_CACHE_READONLY`: shared cell caches, read only, in the order consulted.
    public var cellCacheReadOnly: [String]
    /// `BENCHBOOK_CELL_CACHE_SIZE_MB`: the bound on the user's cell cache in megabytes (nil: the default).
    public var cellCacheSizeMB: Int64?
    /// `BENCHBOOK_OPTIMIZE`: how cells are compiled at start, `on`, `off` or `auto`.
    public var optimize: String
    /// `BENCHBOOK_COMPILER_WARMUP`: when the cell compiler starts.
    public var compilerWarmUp: CompilerWarmUp
    /// `BENCHBOOK_TRACE`: the engine's step timings on standard error.
    public var trace: Bool
    /// `BENCHBOOK_OUTPUT_LIMIT`: how much of a cell's standard output and error the notebook is sent.
    public var outputLimit: Size
    /// `BENCHBOOK_LOOP_CHECKS`: interrupt checks at the top of loop bodies (read by the cell parser).
    public var loopChecks: Bool
    /// `BENCHBOOK_COMPILER_IDLE_TRIM_SECONDS`: idle seconds after which the cell compiler gives memory back (0: never).
    public var compilerIdleTrimSeconds: Double

    /// The settings of this process's environment, read once, or what is wrong with them.
    public static let loaded = Result { () throws(SettingsError) in try KernelSettings(environment: ProcessInfo.processInfo.environment) }

    /// The settings of this process's environment; the defaults when a value is wrong (the
    /// kernel refuses to start then, see ``loaded``).
    public static var current: KernelSettings { (try? loaded.get()) ?? KernelSettings() }

    /// The default settings, as with no `BENCHBOOK_*` variable set.
    public init() {
        self = try! KernelSettings(environment: [:])
    }

    /// Reads the settings from an environment.
    /// - Parameter environment: variables and values (the process's, or a test's).
    /// - Throws: ``SettingsError`` for the first variable whose value it does not take.
    public init(environment: [String: String]) throws(SettingsError) {
        let read = SettingsReader(environment: environment)
        sourceKitLSP = read.text("BENCHBOOK_SOURCEKIT_LSP")
        sourceKitLSPIdleSeconds = try read.seconds("BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS", default: 60,
                                                   meaning: "the language server stops after this many idle seconds; 0 never stops it")
        compileServer = try read.flag("BENCHBOOK_COMPILE_SERVER", default: true,
                                      meaning: "1 (the default) compiles in the long-lived cell compiler, 0 runs swift-frontend for each cell")
        lineTables = try read.flag("BENCHBOOK_LINE_TABLES", default: true,
                                   meaning: "1 (the default) compiles cells with line tables so crashes name their line, 0 without")
        cellFlags = (read.text("BENCHBOOK_CELL_FLAGS") ?? "").split(separator: " ").map(String.init)
        crossModule = try read.flag("BENCHBOOK_CROSS_MODULE", default: true,
                                    meaning: "on (the default) lets later cells inline constants of cells without functions, off never")
        switch read.text("BENCHBOOK_CELL_CACHE")?.trimmingCharacters(in: .whitespaces) {
        case "off"?, "0"?, "none"?: cellCache = .off
        case let path? where !path.isEmpty: cellCache = .directory(path)
        default: cellCache = .standard
        }
        cellCacheReadOnly = (read.text("BENCHBOOK_CELL_CACHE_READONLY") ?? "").split(separator: ":").map(String.init)
        cellCacheSizeMB = try read.positive("BENCHBOOK_CELL_CACHE_SIZE_MB",
                                            meaning: "the user's cell cache is kept under this many megabytes (default 1000)")
        optimize = try read.choice("BENCHBOOK_OPTIMIZE", ["on": "on", "off": "off", "auto": "auto"], default: "auto",
                                   meaning: "on compiles every cell with -O, off none, auto (the default) cells with loops or functions")
        compilerWarmUp = try read.choice("BENCHBOOK_COMPILER_WARMUP", ["auto": .auto, "always": .always, "never": .never],
                                         default: CompilerWarmUp.auto,
                                         meaning: "auto (the default) starts the cell compiler with the kernel unless a shared cell cache is set, always always, never at the first compile")
        trace = try read.flag("BENCHBOOK_TRACE", default: false, meaning: "1 writes the engine's step timings to standard error, 0 (the default) not")
        outputLimit = try environment["BENCHBOOK_OUTPUT_LIMIT"].map(Self.outputLimit(_:)) ?? .bytes(10_000_000)
        loopChecks = try read.flag("BENCHBOOK_LOOP_CHECKS", default: true,
                                   meaning: "1 (the default) puts interrupt checks in loops, 0 compiles loops as written (interrupting one restarts the host)")
        compilerIdleTrimSeconds = try read.seconds("BENCHBOOK_COMPILER_IDLE_TRIM_SECONDS", default: 2,
                                                   meaning: "the cell compiler gives memory back after this many idle seconds; 0 never")
    }

    /// The output limit `BENCHBOOK_OUTPUT_LIMIT=text` sets.
    /// - Parameter text: the variable's value.
    /// - Throws: ``SettingsError`` when the text is not a size (``size(parsing:)``).
    public static func outputLimit(_ text: String) throws(SettingsError) -> Size {
        guard let size = size(parsing: text) else {
            throw SettingsError(variable: "BENCHBOOK_OUTPUT_LIMIT", value: text, expected: "a size",
                                values: "write a number of bytes, optionally with k, M or G (10M is 10,000,000), or 0 for no limit")
        }
        return size
    }

    /// A size as `BENCHBOOK_OUTPUT_LIMIT` takes it: bytes with an optional `k`, `M` or `G`
    /// suffix (powers of 1,000), `0` for no limit.
    /// - Parameter text: the text (`10M`, `500k`, `0`).
    /// - Returns: nil when the text is not a size.
    public static func size(parsing text: String) -> Size? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let multipliers: [Character: Int] = ["k": 1_000, "K": 1_000, "M": 1_000_000, "G": 1_000_000_000]
        var digits = Substring(trimmed)
        var multiplier = 1
        if let last = digits.last, let found = multipliers[last] {
            multiplier = found
            digits = digits.dropLast()
        }
        guard let value = Int(digits), value >= 0 else { return nil }
        let (total, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        return total == 0 ? .unlimited : .bytes(total)
    }
}
