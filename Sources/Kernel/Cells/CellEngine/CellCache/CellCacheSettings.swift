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
    /// - Parameter environment: the kernel's environment.
    public static func from(environment: [String: String]) -> CellCacheSettings {
        let own: URL?
        switch environment["BENCHBOOK_CELL_CACHE"]?.trimmingCharacters(in: .whitespaces) {
        case "off", "0", "none": own = nil
        case let path? where !path.isEmpty: own = URL(fileURLWithPath: path, isDirectory: true)
        default:
            if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
                own = URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("benchbook/cells", isDirectory: true)
            } else if let home = environment["HOME"], home.hasPrefix("/") {
                own = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/benchbook/cells", isDirectory: true)
            } else {
                own = nil
            }
        }
        let shared = (environment["BENCHBOOK_CELL_CACHE_READONLY"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0), isDirectory: true) }
            .filter { $0.standardizedFileURL != own?.standardizedFileURL }
        let megabytes = environment["BENCHBOOK_CELL_CACHE_SIZE_MB"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
        return CellCacheSettings(own: own, shared: shared, sizeLimit: megabytes.map { $0 * 1_000_000 } ?? defaultSizeLimit)
    }
}
