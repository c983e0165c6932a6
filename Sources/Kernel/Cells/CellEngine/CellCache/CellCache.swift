import Foundation
import Synchronization

/// Compiled cells kept between kernels, found by a key computed from everything that
/// decides the compiled library (``CellCacheKey``): a class compiles each lesson cell once.
///
/// Two kinds of directory (``CellCacheSettings``): the user's own cache, read and written,
/// bounded in size with least-recently-used eviction; and shared caches, read only (a
/// class's, filled by the teacher), consulted after it. An entry is a directory
/// `v1/<two hex>/<key>/` (``CellCacheEntry``) written under a temporary name in `v1/tmp/`
/// and renamed into place, so a kernel never sees half an entry; when two kernels store the
/// same key at once, the first rename wins and the other drops its copy. An entry is read
/// whole into memory and every file checked against the SHA-256 its manifest lists
/// before any of it is used.
///
/// A cache that cannot be written (full disk, read-only home) is logged once and then only
/// read: the cell is compiled as without a cache, never failed.
///
/// Thread rules: `lookup` and `store` on one thread (the kernel's shell thread); eviction
/// runs on a background thread of its own; `statistics` from any thread.
final class CellCache: @unchecked Sendable {
    let settings: CellCacheSettings
    private let state = Mutex(State())

    private struct State {
        var hits = 0
        var sharedHits = 0
        var misses = 0
        var stored = 0
        var ownWritable = true
        /// Bytes in the user's cache as last counted plus what this kernel stored since.
        var ownBytes: Int64?
        var trimming = false
    }

    /// The session's counts, for `%cache`.
    struct Statistics: Equatable {
        var hits: Int
        /// Hits found in a shared (read-only) cache.
        var sharedHits: Int
        var misses: Int
        var stored: Int
        /// Whether the user's cache could be written when last tried.
        var ownWritable: Bool
    }

    init(settings: CellCacheSettings) {
        self.settings = settings
    }

    var statistics: Statistics {
        state.withLock { Statistics(hits: $0.hits, sharedHits: $0.sharedHits, misses: $0.misses, stored: $0.stored,
                                    ownWritable: $0.ownWritable) }
    }

    /// Where an entry of `key` lives under a cache root.
    static func entryDirectory(_ root: URL, key: String) -> URL {
        root.appendingPathComponent("v\(CellCacheEntry.formatVersion)/\(key.prefix(2))/\(key)", isDirectory: true)
    }

    /// The valid entry of `key`, from the user's cache then the shared ones; nil (a miss)
    /// when no cache has a complete, intact one.
    /// - Returns: the entry and whether it came from a shared cache.
    func lookup(_ key: String) -> (entry: CellCacheEntry, shared: Bool)? {
        if let own = settings.own, let entry = Self.read(Self.entryDirectory(own, key: key), key: key, removingBadEntry: true) {
            // The manifest's time is the entry's last use, for eviction.
            try? FileManager.default.setAttributes([.modificationDate: Date()],
                                                   ofItemAtPath: Self.entryDirectory(own, key: key).appendingPathComponent(CellCacheEntry.manifestName).path)
            return (entry, false)
        }
        for shared in settings.shared {
            if let entry = Self.read(Self.entryDirectory(shared, key: key), key: key, removingBadEntry: false) {
                return (entry, true)
            }
        }
        return nil
    }

    /// Counts a hit that was used, or a miss.
    func count(hit: Bool, shared: Bool = false) {
        state.withLock {
            if hit { $0.hits += 1; if shared { $0.sharedHits += 1 } } else { $0.misses += 1 }
        }
    }

    /// Reads and checks an entry. A bad entry in the user's own cache is removed so a
    /// good one can take its place; a shared cache is never changed.
    static func read(_ directory: URL, key: String, removingBadEntry: Bool) -> CellCacheEntry? {
        let manifestURL = directory.appendingPathComponent(CellCacheEntry.manifestName)
        guard let data = try? Data(contentsOf: manifestURL) else { return nil }   // no entry: a plain miss
        func bad(_ why: String) -> CellCacheEntry? {
            Trace.note("cell cache: ignored the entry \(key.prefix(12)) (\(why)); compiling")
            if removingBadEntry { discard(directory) }
            return nil
        }
        guard data.count < 1 << 16, let manifest = CellCacheEntry.parseManifest(String(decoding: data, as: UTF8.self), key: key) else {
            return bad("its manifest is incomplete or of another version")
        }
        var files: [String: Data] = [:]
        for (name, expected) in manifest.files {
            guard let content = try? Data(contentsOf: directory.appendingPathComponent(name)) else { return bad("\(name) is missing") }
            guard content.count == expected.size, Digest.hex(of: content) == expected.digest else {
                return bad("\(name) does not match its manifest")
            }
            files[name] = content
        }
        return CellCacheEntry(outcome: manifest.outcome, files: files)
    }

    /// Removes an entry directory atomically: renamed away first, so no reader sees it half
    /// removed, then deleted.
    static func discard(_ directory: URL) {
        let root = directory.deletingLastPathComponent().deletingLastPathComponent()
        let doomed = root.appendingPathComponent("tmp/discard-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: doomed.deletingLastPathComponent(), withIntermediateDirectories: true)
        if rename(directory.path, doomed.path) == 0 { try? FileManager.default.removeItem(at: doomed) }
    }

    /// Stores an entry in the user's cache (nothing when it is off or cannot be written).
    /// - Returns: true when this call put the entry in place (false: it was there already,
    ///   or it could not be written).
    @discardableResult
    func store(_ entry: CellCacheEntry, key: String) -> Bool {
        guard let own = settings.own, state.withLock({ $0.ownWritable }) else { return false }
        let final = Self.entryDirectory(own, key: key)
        if FileManager.default.fileExists(atPath: final.appendingPathComponent(CellCacheEntry.manifestName).path) { return false }
        let versioned = own.appendingPathComponent("v\(CellCacheEntry.formatVersion)", isDirectory: true)
        let temporary = versioned.appendingPathComponent("tmp/\(key.prefix(12))-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            var bytes: Int64 = 0
            for (name, data) in entry.files {
                try data.write(to: temporary.appendingPathComponent(name))
                bytes += Int64(data.count)
            }
            // The manifest last: a directory without it is never read as an entry.
            try Data(entry.manifest(key: key).utf8).write(to: temporary.appendingPathComponent(CellCacheEntry.manifestName))
            try FileManager.default.createDirectory(at: final.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard rename(temporary.path, final.path) == 0 else {
                let code = errno
                try? FileManager.default.removeItem(at: temporary)
                // Another kernel stored the same key first: its entry is as good as ours.
                if code == ENOTEMPTY || code == EEXIST { return false }
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
            }
            let over = state.withLock { state -> Bool in
                state.stored += 1
                state.ownBytes = state.ownBytes.map { $0 + bytes + 4096 }
                return state.ownBytes.map { $0 > settings.sizeLimit } ?? true
            }
            if over { trimInBackground() }
            return true
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            state.withLock { $0.ownWritable = false }
            Trace.warning("the cell cache \(own.path) cannot be written (\(Self.reason(error))); cells are compiled without storing them")
            return false
        }
    }

    private static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }

    // MARK: Size

    /// The entries of a cache root: directory, bytes, last use.
    static func entries(in root: URL) -> [(directory: URL, bytes: Int64, used: Date)] {
        let versioned = root.appendingPathComponent("v\(CellCacheEntry.formatVersion)", isDirectory: true)
        let manager = FileManager.default
        var found: [(URL, Int64, Date)] = []
        for shard in (try? manager.contentsOfDirectory(atPath: versioned.path)) ?? [] where shard.count == 2 {
            let shardURL = versioned.appendingPathComponent(shard, isDirectory: true)
            for name in (try? manager.contentsOfDirectory(atPath: shardURL.path)) ?? [] {
                let directory = shardURL.appendingPathComponent(name, isDirectory: true)
                var bytes: Int64 = 4096
                var used = Date.distantPast
                for file in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] {
                    guard let attributes = try? manager.attributesOfItem(atPath: directory.appendingPathComponent(file).path) else { continue }
                    bytes += (attributes[.size] as? Int64) ?? Int64((attributes[.size] as? Int) ?? 0)
                    if file == CellCacheEntry.manifestName, let date = attributes[.modificationDate] as? Date { used = date }
                }
                found.append((directory, bytes, used))
            }
        }
        return found
    }

    /// The number of entries and bytes of a cache root.
    static func size(of root: URL) -> (entries: Int, bytes: Int64) {
        let all = entries(in: root)
        return (all.count, all.reduce(0) { $0 + $1.bytes })
    }

    /// Counts the user's cache and evicts the least recently used entries until it holds at
    /// most 90 % of its bound.
    func trim() {
        guard let own = settings.own else { return }
        var all = Self.entries(in: own)
        var total = all.reduce(0) { $0 + $1.bytes }
        if total > settings.sizeLimit {
            all.sort { $0.used < $1.used }
            let target = settings.sizeLimit / 10 * 9
            for entry in all where total > target {
                Self.discard(entry.directory)
                total -= entry.bytes
            }
        }
        // Temporary directories left by a kernel that was killed while storing.
        let temporary = own.appendingPathComponent("v\(CellCacheEntry.formatVersion)/tmp", isDirectory: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] {
            let url = temporary.appendingPathComponent(name)
            if let date = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
               date.timeIntervalSinceNow < -3600 {
                try? FileManager.default.removeItem(at: url)
            }
        }
        state.withLock { $0.ownBytes = total; $0.trimming = false }
    }

    private func trimInBackground() {
        let start = state.withLock { state -> Bool in
            guard !state.trimming else { return false }
            state.trimming = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in trim() }
        thread.name = "cell cache eviction"
        thread.start()
    }
}
