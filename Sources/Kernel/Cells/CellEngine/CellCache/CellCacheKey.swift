import BenchbookSettings
import Foundation

/// The key of a cell's compile: the SHA-256 of everything that decides the library and
/// module files it produces, so two kernels (two students) agree on it exactly when their
/// compiles would give the same files.
///
/// Per kernel (``Identity``): the toolchain (its version header, the frontend's and the
/// runtime's ELF build IDs), the notebook library (the SHA-256 of every file in its `Modules/`, of
/// `libBenchbook.so` and of the C module maps cells see), the linker and its command, and
/// the settings that change the generated source or the flags (`BENCHBOOK_LOOP_CHECKS`,
/// `BENCHBOOK_CROSS_MODULE`, `BENCHBOOK_LINE_TABLES`, `BENCHBOOK_CELL_FLAGS`).
/// Per cell: the generated source (it embeds the module name `CellN`, the label `In[N]` and
/// the imports chosen from the notebook's names), every frontend argument with the
/// kernel's work directory written as `$WORK`, the earlier cell modules it links, and the
/// keys of the earlier cell modules it names, so a cell whose text is unchanged but whose
/// earlier definitions changed never hits.
enum CellCacheKey {
    /// What every key of one kernel shares, computed once (a few megabytes hashed).
    static func identity(configuration: EngineConfiguration, moduleMaps: [URL], link: LinkCommand) -> String {
        let digest = Digest()
        digest.update(field: "benchbook-cell-cache \(CellCacheEntry.formatVersion)")
        let manager = FileManager.default
        let tools = configuration.toolsDirectory
        let runtime = tools.appendingPathComponent("../lib/swift/linux").standardizedFileURL
        let interface = runtime.appendingPathComponent("Swift.swiftmodule/\(EngineConfiguration.targetTriple).swiftinterface")
        if let handle = try? FileHandle(forReadingFrom: interface) {
            digest.update((try? handle.read(upToCount: 1024)) ?? Data())
            try? handle.close()
        }
        // The compiler, the standard library and the linker by their build IDs (a hash of
        // each file's contents the linker wrote); a file without one by its size and time.
        for file in [tools.appendingPathComponent("swift-frontend"), runtime.appendingPathComponent("libswiftCore.so"),
                     link.linker] {
            let resolved = file.resolvingSymlinksInPath()
            if let id = ELFBuildID.read(resolved) {
                digest.update(field: "\(file.path) build-id \(id)")
            } else {
                let attributes = try? manager.attributesOfItem(atPath: resolved.path)
                let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
                let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                digest.update(field: "\(file.path) \(size) \(time)")
            }
        }
        digest.update(field: link.template.joined(separator: " "))
        digest.update(field: LinkCommand.sharedStandIns.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
        let modules = configuration.libraryDirectory.appendingPathComponent("Modules")
        for name in ((try? manager.contentsOfDirectory(atPath: modules.path)) ?? []).sorted()
        where name != EngineConfiguration.completionIndexName {
            digest.update(file: modules.appendingPathComponent(name))
        }
        digest.update(file: configuration.library)
        for map in moduleMaps { digest.update(field: map.path); digest.update(file: map) }
        let settings = KernelSettings.current
        for (variable, value) in [("BENCHBOOK_LOOP_CHECKS", "\(settings.loopChecks)"), ("BENCHBOOK_CROSS_MODULE", "\(settings.crossModule)"),
                                  ("BENCHBOOK_LINE_TABLES", "\(settings.lineTables)"),
                                  ("BENCHBOOK_CELL_FLAGS", settings.cellFlags.joined(separator: " "))] {
            digest.update(field: "\(variable)=\(value)")
        }
        return digest.finish()
    }

    /// The key of one compile.
    /// - Parameters:
    ///   - identity: the kernel's ``identity(configuration:moduleMaps:link:)``.
    ///   - source: the generated module source.
    ///   - arguments: the frontend's arguments.
    ///   - work: the kernel's work directory, written as `$WORK` in the arguments.
    ///   - linking: earlier cell modules the link names.
    ///   - dependencies: the keys of the earlier cell modules the source names, by module.
    static func key(identity: String, source: String, arguments: [String], work: URL, linking: [String],
                    dependencies: [String: String]) -> String {
        let digest = Digest()
        digest.update(field: identity)
        let workPath = work.path
        for argument in arguments { digest.update(field: argument.replacing(workPath, with: "$WORK")) }
        digest.update(field: "linking " + linking.joined(separator: " "))
        for (module, key) in dependencies.sorted(by: { $0.key < $1.key }) { digest.update(field: "\(module) \(key)") }
        digest.update(field: "source")
        digest.update(Data(source.utf8))
        return digest.finish()
    }

    /// The cell module names (`Cell3`) a source or link list mentions.
    static func cellModules(in source: String, prefix: String) -> Set<String> {
        var names = Set<String>()
        var index = source.startIndex
        while let range = source[index...].range(of: prefix) {
            var end = range.upperBound
            while end < source.endIndex, source[end].isASCII, source[end].isNumber { end = source.index(after: end) }
            let before = range.lowerBound == source.startIndex ? nil : source[source.index(before: range.lowerBound)]
            if end > range.upperBound, !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false),
               !(end < source.endIndex && (source[end].isLetter || source[end] == "_")) {
                names.insert(String(source[range.lowerBound..<end]))
            }
            index = end > range.upperBound ? end : range.upperBound
        }
        return names
    }
}
