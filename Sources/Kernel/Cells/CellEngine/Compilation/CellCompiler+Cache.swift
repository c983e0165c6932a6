import CellSource
import Foundation
import GeneratedNames

/// The cell cache on the compile path (see ``CellCache``): the key of a compile, a hit
/// installed in place of the compiler's and linker's output, and what a compile stores.
extension CellCompiler {
    /// The key of this compile, or nil when the cache is off or the source names an
    /// earlier cell module that was compiled without a key.
    func cacheKey(source: String, module: String, frontend: [String], linking: [String]) -> String? {
        guard cache != nil else { return nil }
        var dependencies: [String: String] = [:]
        let named = CellCacheKey.cellModules(in: source, prefix: RuntimeNames.modulePrefix).union(linking)
        for name in named where name != module {
            switch moduleKeys[name] {
            case .some(.some(let key)): dependencies[name] = key
            case .some(.none): return nil      // its module file exists, but its content has no key
            case .none: continue              // not a module of this kernel: nothing to read
            }
        }
        return CellCacheKey.key(identity: cacheIdentity, source: source, arguments: frontend,
                                work: configuration.workDirectory, linking: linking, dependencies: dependencies)
    }

    /// The outcome of a compile from the cache, or nil (a miss: compile).
    /// - Parameters:
    ///   - hostServes: true for a library the host that will load the cell has loaded.
    ///   - waitForHost: waits for that host to be ready.
    func cached(_ key: String, module: String, cellLabel: String, insertions: [Insertion],
                hostServes: (String) -> Bool, waitForHost: () -> Void) -> Result<URL, CompileFailure>? {
        guard let cache else { return nil }
        let started = DispatchTime.now()
        let short = String(key.prefix(12))
        guard let (entry, shared) = cache.lookup(key) else {
            cache.count(hit: false)
            Trace.note("cell cache: miss \(short)")
            return nil
        }
        let work = configuration.workDirectory
        switch entry.outcome {
        case .failure:
            let text = String(decoding: entry.files[CellCacheEntry.diagnosticsName] ?? Data(), as: UTF8.self)
                .replacing(CellCacheEntry.workPlaceholder, with: work.path)
            cache.count(hit: true, shared: shared)
            Trace.step("cell cache: hit \(short)\(shared ? " (shared)" : "") (compile errors)", since: started)
            return .failure(CompileFailure(diagnostics: CompilerDiagnostics.parse(text, cellLabel: cellLabel, insertions: insertions)))
        case .library(let omitted):
            var started = started
            if !omitted.allSatisfy(hostServes) {
                waitForHost()
                Trace.step("cell cache: waited for the host", since: started)
                started = DispatchTime.now()
                guard omitted.allSatisfy(hostServes) else {
                    cache.count(hit: false)
                    Trace.note("cell cache: miss \(short) (the host has not loaded what the cached library needs)")
                    return nil
                }
            }
            let library = work.appendingPathComponent("lib\(module).so")
            do {
                for suffix in CellCacheEntry.moduleSuffixes {
                    let target = configuration.cellModulesDirectory.appendingPathComponent(module + suffix)
                    try? FileManager.default.removeItem(at: target)
                    if let data = entry.files["module" + suffix] { try data.write(to: target) }
                }
                try entry.files[CellCacheEntry.libraryName]!.write(to: library)
            } catch {
                return .failure(.notWritten(work.path, String(describing: error)))
            }
            cache.count(hit: true, shared: shared)
            Trace.step("cell cache: hit \(short)\(shared ? " (shared)" : "")", since: started)
            return .success(library)
        }
    }

    /// Stores what a compile and link wrote for `module`.
    func storeLibrary(key: String, module: String, omitted: [String]) {
        guard let cache else { return }
        let work = configuration.workDirectory
        guard let library = try? Data(contentsOf: work.appendingPathComponent("lib\(module).so")) else { return }
        var files = [CellCacheEntry.libraryName: library]
        for suffix in CellCacheEntry.moduleSuffixes {
            if let data = try? Data(contentsOf: configuration.cellModulesDirectory.appendingPathComponent(module + suffix)) {
                files["module" + suffix] = data
            }
        }
        let started = DispatchTime.now()
        if cache.store(CellCacheEntry(outcome: .library(omitted: omitted), files: files), key: key) {
            Trace.step("cell cache: stored \(key.prefix(12))", since: started)
        }
    }

    /// Stores the compiler's errors for a source that does not compile.
    func storeFailure(_ text: String, key: String) {
        // Only the compiler's own errors, which the same source always gives again; not a
        // step that was killed or could not start.
        guard let cache, text.contains("error: "), !text.contains(" ended with SIG"), !text.contains("could not be started") else { return }
        let portable = text.replacing(configuration.workDirectory.path, with: CellCacheEntry.workPlaceholder)
        if cache.store(CellCacheEntry(outcome: .failure, files: [CellCacheEntry.diagnosticsName: Data(portable.utf8)]), key: key) {
            Trace.note("cell cache: stored \(key.prefix(12)) (compile errors)")
        }
    }
}
