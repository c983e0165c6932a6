@testable import CellEngine
import Foundation
import Testing

/// The cell cache's parts that need no compiler: where it lives, what a manifest accepts,
/// which cell modules a source names, what changes a key, and the store's atomic entries.
/// (Compiles through the cache, with real kernels: Tests/python/test_cell_cache.py.)
@Suite struct CellCacheTests {
    @Test func settingsFollowTheEnvironment() {
        let home = CellCacheSettings.from(environment: ["HOME": "/home/ada"])
        #expect(home.own?.path == "/home/ada/.cache/benchbook/cells")
        #expect(home.shared.isEmpty && home.sizeLimit == 1_000_000_000)
        let xdg = CellCacheSettings.from(environment: ["HOME": "/home/ada", "XDG_CACHE_HOME": "/var/cache/ada"])
        #expect(xdg.own?.path == "/var/cache/ada/benchbook/cells")
        let off = CellCacheSettings.from(environment: ["HOME": "/home/ada", "BENCHBOOK_CELL_CACHE": "off"])
        #expect(off.own == nil && off.isOff)
        let shared = CellCacheSettings.from(environment: [
            "BENCHBOOK_CELL_CACHE": "/c/own", "BENCHBOOK_CELL_CACHE_READONLY": "/c/class:/c/own:/c/school",
            "BENCHBOOK_CELL_CACHE_SIZE_MB": "250",
        ])
        #expect(shared.own?.path == "/c/own")
        #expect(shared.shared.map(\.path) == ["/c/class", "/c/school"])   // the own cache is not read twice
        #expect(shared.sizeLimit == 250_000_000)
    }

    @Test func aManifestIsAcceptedWholeOrNotAtAll() throws {
        let key = String(repeating: "ab", count: 32)
        let entry = CellCacheEntry(outcome: .library(omitted: ["Benchbook", "swiftCore"]),
                                   files: ["library.so": Data([1, 2, 3]), "module.swiftmodule": Data([4])])
        let text = entry.manifest(key: key)
        let parsed = try #require(CellCacheEntry.parseManifest(text, key: key))
        #expect(parsed.outcome == .library(omitted: ["Benchbook", "swiftCore"]))
        #expect(parsed.files["library.so"]?.size == 3)
        #expect(CellCacheEntry.parseManifest(text, key: String(repeating: "cd", count: 32)) == nil)   // another key
        #expect(CellCacheEntry.parseManifest(String(text.dropLast(5)), key: key) == nil)             // no end line
        #expect(CellCacheEntry.parseManifest(text.replacing("benchbook-cell-cache 1", with: "benchbook-cell-cache 2"), key: key) == nil)
        #expect(CellCacheEntry.parseManifest(text.replacing("library.so", with: "../library.so"), key: key) == nil)
    }

    @Test func theCellModulesASourceNames() {
        let source = "@testable import var Cell3.x\nimport struct Cell12.Point\nlet MyCell4 = Cell5x + Cell7_\nprint(\"Cell9\")"
        #expect(CellCacheKey.cellModules(in: source, prefix: "Cell") == ["Cell3", "Cell12", "Cell9"])
    }

    @Test func aKeyChangesWithWhatDecidesTheCompileAndNotWithTheWorkDirectory() {
        func key(work: String = "/tmp/benchbook-1-a", source: String = "print(x)", dependencies: [String: String] = ["Cell1": "k1"],
                 arguments: [String]? = nil) -> String {
            CellCacheKey.key(identity: "toolchain", source: source,
                             arguments: arguments ?? ["-c", "\(work)/Cell2.swift", "-I", "\(work)/modules", "-Onone"],
                             work: URL(fileURLWithPath: work), linking: ["Cell1"], dependencies: dependencies)
        }
        #expect(key() == key(work: "/tmp/benchbook-2-b"))
        #expect(key() != key(source: "print(y)"))
        #expect(key() != key(dependencies: ["Cell1": "k1 of another x"]))
        #expect(key() != key(arguments: ["-c", "/tmp/benchbook-1-a/Cell2.swift", "-I", "/tmp/benchbook-1-a/modules", "-O"]))
        #expect(key().count == 64)
        // An entry an older kernel compiled with the debug assert configuration (before
        // issue 48) is not what an optimised cell is compiled with now.
        let before = ["-c", "/tmp/benchbook-1-a/Cell2.swift", "-O", "-assert-config", "Debug"]
        #expect(key(arguments: before) != key(arguments: ["-c", "/tmp/benchbook-1-a/Cell2.swift"] + CellCompiler.optimizationFlags(true)))
        #expect(!CellCompiler.optimizationFlags(true).contains("-assert-config"), "cells are built as an app is")
    }

    @Test func storedEntriesAreReadBackAndABadOneIsRemoved() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cell-cache-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = CellCache(settings: CellCacheSettings(own: root))
        let key = String(repeating: "0f", count: 32)
        let entry = CellCacheEntry(outcome: .failure, files: ["diagnostics.txt": Data("error: no".utf8)])
        #expect(cache.store(entry, key: key))
        #expect(!cache.store(entry, key: key))   // there already
        #expect(cache.lookup(key)?.entry == entry)
        let file = CellCache.entryDirectory(root, key: key).appendingPathComponent("diagnostics.txt")
        try Data("error: nX".utf8).write(to: file)   // same size, other bytes
        #expect(cache.lookup(key) == nil)
        #expect(!FileManager.default.fileExists(atPath: CellCache.entryDirectory(root, key: key).path))
        #expect(cache.store(entry, key: key))
        #expect(cache.statistics.stored == 2)
    }

    @Test func theLeastRecentlyUsedEntriesGoPastTheBound() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cell-cache-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let filling = CellCache(settings: CellCacheSettings(own: root))
        let keys = (0..<6).map { String(repeating: String(format: "%02x", $0), count: 32) }
        for (index, key) in keys.enumerated() {
            _ = filling.store(CellCacheEntry(outcome: .failure, files: ["diagnostics.txt": Data(count: 10_000)]), key: key)
            let manifest = CellCache.entryDirectory(root, key: key).appendingPathComponent("manifest")
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(index * 10 - 100))],
                                                  ofItemAtPath: manifest.path)
        }
        let cache = CellCache(settings: CellCacheSettings(own: root, sizeLimit: 60_000))
        _ = cache.lookup(keys[0])   // used now: the newest
        cache.trim()
        let left = Set(keys.filter { FileManager.default.fileExists(atPath: CellCache.entryDirectory(root, key: $0).path) })
        #expect(CellCache.size(of: root).bytes <= 54_000)
        #expect(left.contains(keys[0]) && left.contains(keys[5]) && !left.contains(keys[1]))
    }

    @Test func theToolchainIsNamedByTheBuildIDsReadelfShows() throws {
        // readelf (binutils) is what a person would check the ID with.
        let frontend = URL(fileURLWithPath: "/opt/swift/usr/bin/swift-frontend")
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        readelf.arguments = ["-n", frontend.path]
        let pipe = Pipe()
        readelf.standardOutput = pipe
        try readelf.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let expected = try #require(text.firstMatch(of: /Build ID: ([0-9a-f]+)/)).1
        #expect(ELFBuildID.read(frontend) == String(expected))
        // Not ELF, or no note: nil, never a made-up ID.
        let notELF = FileManager.default.temporaryDirectory.appendingPathComponent("not-elf-\(UUID().uuidString)")
        try Data(repeating: 0x41, count: 200).write(to: notELF)
        defer { try? FileManager.default.removeItem(at: notELF) }
        #expect(ELFBuildID.read(notELF) == nil)
        // A note segment: a "GNU" note of another type is skipped, the build-ID note read.
        let other: [UInt8] = [4, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0x47, 0x4E, 0x55, 0, 9, 9, 9, 9]
        let id: [UInt8] = [4, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0x47, 0x4E, 0x55, 0, 0xAB, 0xCD, 0xEF, 0]
        #expect(ELFBuildID.buildID(inNotes: other + id) == "abcdef")
        #expect(ELFBuildID.buildID(inNotes: Array(id.prefix(18))) == nil)
    }
}
