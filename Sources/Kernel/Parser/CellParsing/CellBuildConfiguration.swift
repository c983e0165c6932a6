@_implementationOnly import SwiftIfConfig
@_implementationOnly import SwiftSyntax
import Foundation

/// The build conditions a cell is compiled under, for `#if` at a cell's top level: what
/// `swiftc main.swift` on this machine evaluates (no custom conditions such as `DEBUG`,
/// Swift 5 language mode, this toolchain's compiler version, Linux on this architecture).
///
/// `canImport(M)` is true for the toolchain's Swift modules, the notebook library's modules
/// and the C library (`Glibc`), found next to the parser's own libraries.
///
/// Thread rules: immutable after its one initialisation (`@unchecked Sendable` because the
/// toolchain's `StaticBuildConfiguration` it holds is not marked `Sendable`).
struct CellBuildConfiguration: BuildConfiguration, @unchecked Sendable {
    private let base: StaticBuildConfiguration
    private let importable: Set<String>

    /// The configuration of this machine and toolchain.
    static let current = CellBuildConfiguration()

    private init() {
        #if arch(x86_64)
        let architecture = "x86_64"
        #elseif arch(arm64)
        let architecture = "arm64"
        #else
        let architecture = "unknown"
        #endif
        #if compiler(>=6.3)
        let compiler = VersionTuple(6, 3)
        #elseif compiler(>=6.2)
        let compiler = VersionTuple(6, 2)
        #else
        let compiler = VersionTuple(6, 0)
        #endif
        base = StaticBuildConfiguration(
            attributes: Self.attributes, targetOSs: ["Linux"], targetArchitectures: [architecture],
            targetRuntimes: ["_Native", "_multithreaded"], targetObjectFileFormats: ["ELF"],
            targetPointerBitWidth: 64, targetAtomicBitWidths: [8, 16, 32, 64, 128], endianness: .little,
            languageVersion: VersionTuple(5, 10), compilerVersion: compiler)
        importable = Self.importableModules()
    }

    func isCustomConditionSet(name: String) -> Bool { false }
    func hasFeature(name: String) -> Bool { false }
    func hasAttribute(name: String) -> Bool { base.hasAttribute(name: name) }
    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) -> Bool {
        guard let module = importPath.first?.1 else { return false }
        return importable.contains(module)
    }
    func isActiveTargetOS(name: String) -> Bool { base.isActiveTargetOS(name: name) }
    func isActiveTargetArchitecture(name: String) -> Bool { base.isActiveTargetArchitecture(name: name) }
    func isActiveTargetEnvironment(name: String) -> Bool { false }
    func isActiveTargetRuntime(name: String) -> Bool { base.isActiveTargetRuntime(name: name) }
    func isActiveTargetPointerAuthentication(name: String) -> Bool { false }
    func isActiveTargetObjectFormat(name: String) -> Bool { base.isActiveTargetObjectFormat(name: name) }
    var targetPointerBitWidth: Int { base.targetPointerBitWidth }
    var targetAtomicBitWidths: [Int] { base.targetAtomicBitWidths }
    var endianness: Endianness { base.endianness }
    var languageVersion: VersionTuple { base.languageVersion }
    var compilerVersion: VersionTuple { base.compilerVersion }

    /// Declaration attributes `hasAttribute(...)` is asked about in practice.
    private static let attributes: Set<String> = [
        "available", "discardableResult", "dynamicCallable", "dynamicMemberLookup", "escaping", "frozen",
        "globalActor", "inlinable", "main", "MainActor", "nonobjc", "objcMembers", "preconcurrency",
        "propertyWrapper", "resultBuilder", "retroactive", "Sendable", "unchecked", "usableFromInline",
        "warn_unqualified_access", "backDeployed", "attached", "freestanding", "unknown", "testable",
        "_exported", "_implementationOnly", "_spi", "nonisolated", "isolated", "concurrent",
    ]

    /// The Swift modules of the toolchain (next to the host libraries this process loaded)
    /// and of the notebook library (`Modules` next to this executable), and the C library.
    private static func importableModules() -> Set<String> {
        var modules: Set<String> = ["Swift", "Glibc", "SwiftGlibc"]
        var directories: [URL] = []
        // /proc files report no size: read them to their end.
        if let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile(),
           let maps = String(data: data, encoding: .utf8),
           let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libSwiftParser.so") }),
           let slash = line.firstIndex(of: "/") {
            let host = URL(fileURLWithPath: String(line[slash...])).deletingLastPathComponent()
            directories.append(host.appendingPathComponent("../linux").standardizedFileURL)
        }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules"))
        }
        for directory in directories {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasSuffix(".swiftmodule") {
                modules.insert(String(name.dropLast(".swiftmodule".count)))
            }
        }
        return modules
    }
}
