@testable import CellEngine
import EngineTestSupport
import Foundation
import GeneratedNames
import Testing
import XCTest

/// The names generated cell code uses to reach the notebook library (``RuntimeNames``),
/// each used as the code generator uses it, compiled against the built library: a rename
/// on either side fails here, not in a student's notebook.
final class RuntimeNamesTests: XCTestCase {
    func testEveryNameCompilesAgainstTheLibrary() throws {
        let build = buildDirectory()
        let host = build.appendingPathComponent("benchbook-cell-host")
        guard FileManager.default.fileExists(atPath: build.appendingPathComponent("libBenchbook.so").path) else {
            try skipOrFail("build the products first (swift build) so libBenchbook.so exists in \(build.path)")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var configuration = EngineConfiguration.beside(executable: host)
        configuration.libraryDirectory = build
        configuration.workDirectory = work
        let compiler = CellCompiler(configuration: configuration)
        defer { compiler.server.stop() }

        let module = RuntimeNames.module(900)
        let result = compiler.compile(source: Self.source(module: module), module: module, cellLabel: "In[900]",
                                      linking: [], cancellation: CellCancellation())
        if case .failure(let failure) = result {
            XCTFail("the generated names do not compile against the library: \(failure)")
        }
    }

    /// A cell module that uses every name in ``RuntimeNames``.
    static func source(module: String) -> String {
        let names = RuntimeNames.self
        let context = names.context
        return """
        import Benchbook

        enum \(names.moduleMarker) {}

        @_cdecl("\(names.entrySymbol(module: module))")
        public func \(names.entryFunction)() -> Int32 {
            let synchronous = \(names.cellRuntime).\(names.run)(cell: 900, optimization: \(names.optimization(true))) { \(context) throws in
                let \(names.scopePrefix)total = \(names.scopeType)<Int>("In[900]") { 1 }
                try \(names.scopePrefix)total.\(names.scopeRun)()
                \(context).\(names.bound)()
                let \(names.unsetPrefix)x = \(names.unsetType)<Int>("x", cell: "In[900]", isConstant: false)
                \(names.unsetPrefix)x.\(names.unsetValue) = \(names.scopePrefix)total.\(names.scopeResult)
                for _ in 0..<2 { \(names.throwingInterruptCheck)_ = 1 }
                let \(names.timedValue) = try \(names.timeCall) { () throws in 2 }
                \(context).\(names.present)(\(names.timedValue))
                let perLoop = try \(names.timeitCall)("In[900]") { () throws in }
                print(perLoop.\(names.perLoopSummary))
                \(context).\(names.present)(try \(names.benchmarkType)("names").\(names.recordCall) { () throws in })
                \(names.cellRuntime).\(names.listNames)(detailed: true, filter: [], [
                    .\(names.listedValue)("x", cell: "In[900]", 1), .\(names.listedDeclaration)("Point", kind: "struct", cell: "In[900]"),
                    .\(names.listedLost)("y", cell: "In[900]"), .\(names.listedUnreadable)("z", cell: "In[900]", reason: "gone"),
                ])
                \(names.cellRuntime).\(names.inspectNames)([.\(names.listedValue)("x", cell: "In[900]", 1)])
                \(names.cellRuntime).\(names.richInspect)(1)
            }
            let awaiting = \(names.cellRuntime).\(names.run)(cell: 900, optimization: \(names.optimization(false))) { \(context) async throws in
                let scope = \(names.scopeType)<Int>("In[900]") { () async throws in 3 }
                try await scope.\(names.scopeRunAsync)()
                for _ in 0..<2 { \(names.trappingInterruptCheck)_ = scope.\(names.scopeResult) }
            }
            return synchronous | awaiting
        }
        """
    }
}

/// Names generated code writes: keywords escaped, reserved prefixes recognised.
@Suite struct GeneratedNameTests {
    @Test func keywordsAreEscapedAndOtherNamesAreNot() {
        #expect(RuntimeNames.escaped("let") == "`let`")
        #expect(RuntimeNames.escaped("default") == "`default`")
        #expect(RuntimeNames.escaped("foo") == "foo")
        #expect(RuntimeNames.escaped("+") == "+")
    }

    @Test func reservedPrefixesAreThoseOfGeneratedNames() {
        for name in [RuntimeNames.context, RuntimeNames.entryFunction, RuntimeNames.cellRuntime, RuntimeNames.scopeType,
                     RuntimeNames.unsetType, RuntimeNames.scopePrefix + "x", RuntimeNames.unsetPrefix + "x",
                     RuntimeNames.timedValue, RuntimeNames.moduleMarker] {
            #expect(RuntimeNames.reservedPrefix(of: name) != nil, "\(name)")
        }
        #expect(RuntimeNames.reservedPrefix(of: "bb") == nil)
        #expect(RuntimeNames.reservedPrefix(of: "Benchbook") == nil)
    }
}
