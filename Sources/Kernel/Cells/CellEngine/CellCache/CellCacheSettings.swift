import BenchbookSettings
import Foundation

/// Where compiled cells are kept between kernels (see ``CellCache``).
///
/// - `BENCHBOOK_CELL_CACHE`: the user's own cache, read and written (a directory; `off`
///   turns it off). Default: `$XDG_CACHE_HOME/benchbook/cells`, else `~/.cache/benchbook/cells`.
/// - `BENCHBOOK_CELL_CACHE_READONLY`: shared caches, read only, `:`-separated, consulted
///   after the user's own (a class's cache, filled by the teacher with `make warm-cache`).
/// - `BENCHBOOK_CELL_CACHE_SIZE_MB`: the bound on the user's cache, least recently used
///   entries evicted past it (default 1000 MB, that is 1 GB).
public struct CellCacheSettings: Sendable, Equatable {
    /// The user's own cache (read and written), or nil when it is off.
    public var own: URL?
    /// Caches read but never written, in the order they are consulted.
    public var shared: [URL]
    /// The most the user's cache may hold, in bytes.
    public var sizeLimit: Int64

    /// The default bound on the user's cache: 1 GB.
    public static let defaultSizeLimit: Int64 = 1_000_000_000

    /// Settings with no cache at all.
    public static let off = CellCacheSettings(own: nil, shared: [], sizeLimit: defaultSizeLimit)

    /// Creates settings.
    public init(own: URL?, shared: [URL] = [], sizeLimit: Int64 = defaultSizeLimit) {
        self.own = own
        self.shared = shared
        self.sizeLimit = sizeLimit
    }

    /// True when no cache is read or written.
    public var isOff: Bool { own == nil && shared.isEmpty }

    /// The settings an environment asks for (see the type's description).
    /// - Parameter environment: the variables (`BENCHBOOK_CELL_CACHE...`, `HOME`, `XDG_CACHE_HOME`);
    ///   a `BENCHBOOK_` value the settings do not take counts as unset.
    public static func from(environment: [String: String]) -> CellCacheSettings {
        from((try? KernelSettings(environment: environment)) ?? KernelSettings(), environment: environment)
    }

    /// The settings the kernel's settings ask for.
    /// - Parameters:
    ///   - settings: the kernel's settings (`BENCHBOOK_CELL_CACHE`, `..._READONLY`, `..._SIZE_MB`).
    ///   - environment: where `HOME` and `XDG_CACHE_HOME` are read, for the standard place.
    public static func from(_ settings: KernelSettings, environment: [String: String]) -> CellCacheSettings {
        let own: URL?
        switch settings.cellCache {
        case .off: own = nil
        case .directory(let path): own = URL(fileURLWithPath: path, isDirectory: true)
        case .standard:
            if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
                own = URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("benchbook/cells", isDirectory: true)
            } else if let home = environment["HOME"], home.hasPrefix("/") {
                own = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/benchbook/cells", isDirectory: true)
            } else {
                own = nil
            }
        }
        let shared = settings.cellCacheReadOnly.map { URL(fileURLWithPath: $0, isDirectory: true) }
            .filter { $0.standardizedFileURL != own?.standardizedFileURL }
        return CellCacheSettings(own: own, shared: shared, sizeLimit: settings.cellCacheSizeMB.map { $0 * 1_000_000 } ?? defaultSizeLimit)
    }
}
