import Foundation

/// Every `BENCHBOOK_*` setting of the notebook library's side: the cell host and every
/// program that links the library (`benchbook-bench`, `benchbook-models`). Read once per
/// process, from the process environment, by ``loaded``; docs/settings.md lists each
/// variable with its default and what it changes.
///
/// The kernel checks these too when it starts (the cell host inherits its environment),
/// and stops with the ``SettingsError`` when a value is not one the variable takes; the
/// library uses ``current``.
public struct LibrarySettings: Sendable, Equatable {
    /// What the cell host loads before the first cell.
    public enum Preload: Sendable, Equatable {
        /// Nothing: every runtime loads when a model first needs it.
        case off
        /// The model runtimes' libraries.
        case libraries
        /// The libraries, and libtorch's one-time work of a first load and run.
        case warmUp
    }

    /// `BENCHBOOK_SNAPSHOTS`: the cell host leaves a snapshot after each cell, so a crash keeps earlier variables.
    public var snapshots: Bool
    /// `BENCHBOOK_PRELOAD`: what the cell host loads before the first cell.
    public var preload: Preload
    /// `BENCHBOOK_RUNTIME_LOGS`: the model runtimes' log lines reach standard error at start.
    public var runtimeLogs: Bool
    /// `BENCHBOOK_LITERT_LIBRARY`: the LiteRT library file, the only place looked at when set.
    public var liteRTLibrary: String?
    /// `BENCHBOOK_RESULTS_DIR`: where benchmark records go when no directory is given.
    public var resultsDirectory: String?
    /// `BENCHBOOK_POWERCAP_ROOT`: a directory laid out like `/sys/class/powercap` for energy counters.
    public var powercapRoot: String?
    /// `BENCHBOOK_BENCH_WORKER`: the `benchbook-bench-worker` executable, the only place looked at when set.
    public var benchWorker: String?

    /// The settings of this process's environment, read once, or what is wrong with them.
    public static let loaded = Result { () throws(SettingsError) in try LibrarySettings(environment: ProcessInfo.processInfo.environment) }

    /// The settings of this process's environment; the defaults when a value is wrong (the
    /// kernel refuses to start then, see ``loaded``).
    public static var current: LibrarySettings { (try? loaded.get()) ?? LibrarySettings() }

    /// The default settings, as with no `BENCHBOOK_*` variable set.
    public init() {
        self = try! LibrarySettings(environment: [:])
    }

    /// Reads the settings from an environment.
    /// - Parameter environment: variables and values (the process's, or a test's).
    /// - Throws: ``SettingsError`` for the first variable whose value it does not take.
    public init(environment: [String: String]) throws(SettingsError) {
        let read = SettingsReader(environment: environment)
        snapshots = try read.flag("BENCHBOOK_SNAPSHOTS", default: true,
                                  meaning: "1 (the default) snapshots the cell host after each cell, 0 not (a crash then loses earlier variables)")
        preload = try read.choice("BENCHBOOK_PRELOAD", ["0": .off, "libraries": .libraries, "1": .warmUp], default: Preload.warmUp,
                                  meaning: "1 (the default) loads and warms up the model runtimes before the first cell, libraries only loads them, 0 nothing")
        runtimeLogs = try read.flag("BENCHBOOK_RUNTIME_LOGS", default: false,
                                    meaning: "1 lets LiteRT's and libtorch's log lines through, 0 (the default) keeps them out of the notebook")
        liteRTLibrary = read.text("BENCHBOOK_LITERT_LIBRARY")
        resultsDirectory = read.text("BENCHBOOK_RESULTS_DIR")
        powercapRoot = read.text("BENCHBOOK_POWERCAP_ROOT")
        benchWorker = read.text("BENCHBOOK_BENCH_WORKER")
    }
}
