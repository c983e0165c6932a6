import Foundation

extension CellEngine {
    /// Serves `%cache`: the cell cache's hits and misses this session, and what each cache
    /// directory holds. Compiles nothing and takes no execution number.
    /// - Returns: nil (the cell never fails).
    func showCache(output: CellOutput) -> CellError? {
        guard let cache = compiler.cache else {
            output.stream(name: "stdout", text: "The cell cache is off (BENCHBOOK_CELL_CACHE=off and no BENCHBOOK_CELL_CACHE_READONLY): every cell is compiled.\n")
            return nil
        }
        let statistics = cache.statistics
        let lookups = statistics.hits + statistics.misses
        var lines = ["Cell cache this session: \(statistics.hits) of \(lookups) compiles found in the cache"
            + (statistics.sharedHits > 0 ? " (\(statistics.sharedHits) in a shared cache)" : "")
            + ", \(statistics.misses) compiled, \(statistics.stored) stored."]
        func describe(_ root: URL) -> String {
            let size = CellCache.size(of: root)
            return "\(size.entries) entries, \(String(format: "%.1f", Double(size.bytes) / 1e6)) MB"
        }
        if let own = cache.settings.own {
            let limit = Double(cache.settings.sizeLimit) / 1e6
            lines.append("Your cache \(own.path): \(describe(own)) (at most \(String(format: "%.0f", limit)) MB, least recently used entries removed past it)"
                + (statistics.ownWritable ? "." : "; it cannot be written, so cells compiled now are not kept."))
        } else {
            lines.append("Your cache is off (BENCHBOOK_CELL_CACHE=off).")
        }
        for shared in cache.settings.shared {
            lines.append("Shared cache (read only) \(shared.path): \(describe(shared)).")
        }
        output.stream(name: "stdout", text: lines.joined(separator: "\n") + "\n")
        return nil
    }
}
