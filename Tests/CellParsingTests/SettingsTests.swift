import BenchbookSettings
import XCTest

/// KernelSettings and LibrarySettings: the defaults with nothing set, each kind of value
/// read, and a value a variable does not take refused with the variable, the value and
/// what it takes.
final class SettingsTests: XCTestCase {
    func testNothingSetGivesTheDocumentedDefaults() throws {
        let kernel = try KernelSettings(environment: ["HOME": "/home/ada"])
        XCTAssertEqual(kernel, KernelSettings())
        XCTAssertEqual(kernel.optimize, "auto")
        XCTAssertEqual(kernel.outputLimit, .bytes(10_000_000))
        XCTAssertEqual(kernel.cellCache, .standard)
        XCTAssertEqual(kernel.compilerWarmUp, .auto)
        XCTAssertTrue(kernel.compileServer && kernel.lineTables && kernel.crossModule && kernel.loopChecks)
        XCTAssertFalse(kernel.trace)
        XCTAssertEqual(kernel.sourceKitLSPIdleSeconds, 60)
        XCTAssertEqual(kernel.compilerIdleTrimSeconds, 2)
        let library = try LibrarySettings(environment: [:])
        XCTAssertEqual(library.preload, .warmUp)
        XCTAssertTrue(library.snapshots)
        XCTAssertFalse(library.runtimeLogs)
        XCTAssertNil(library.resultsDirectory)
    }

    func testValuesAreRead() throws {
        let kernel = try KernelSettings(environment: [
            "BENCHBOOK_LOOP_CHECKS": "0", "BENCHBOOK_CROSS_MODULE": "off", "BENCHBOOK_TRACE": "1",
            "BENCHBOOK_CELL_FLAGS": "-Xllvm  -foo", "BENCHBOOK_CELL_CACHE": "off", "BENCHBOOK_CELL_CACHE_READONLY": "/a:/b",
            "BENCHBOOK_CELL_CACHE_SIZE_MB": "50", "BENCHBOOK_OPTIMIZE": "on", "BENCHBOOK_COMPILER_WARMUP": "never",
            "BENCHBOOK_OUTPUT_LIMIT": "0", "BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS": "0.5",
        ])
        XCTAssertFalse(kernel.loopChecks)
        XCTAssertFalse(kernel.crossModule)
        XCTAssertTrue(kernel.trace)
        XCTAssertEqual(kernel.cellFlags, ["-Xllvm", "-foo"])
        XCTAssertEqual(kernel.cellCache, .off)
        XCTAssertEqual(kernel.cellCacheReadOnly, ["/a", "/b"])
        XCTAssertEqual(kernel.cellCacheSizeMB, 50)
        XCTAssertEqual(kernel.optimize, "on")
        XCTAssertEqual(kernel.compilerWarmUp, .never)
        XCTAssertEqual(kernel.outputLimit, .unlimited)
        XCTAssertEqual(kernel.sourceKitLSPIdleSeconds, 0.5)
        XCTAssertEqual(try KernelSettings(environment: ["BENCHBOOK_CELL_CACHE": "/tmp/c"]).cellCache, .directory("/tmp/c"))
        let library = try LibrarySettings(environment: ["BENCHBOOK_PRELOAD": "libraries", "BENCHBOOK_SNAPSHOTS": "0",
                                                        "BENCHBOOK_RUNTIME_LOGS": "yes", "BENCHBOOK_RESULTS_DIR": "/tmp/r"])
        XCTAssertEqual(library.preload, .libraries)
        XCTAssertFalse(library.snapshots)
        XCTAssertTrue(library.runtimeLogs)
        XCTAssertEqual(library.resultsDirectory, "/tmp/r")
    }

    func testAValueNotTakenNamesTheVariableAndItsValues() {
        let refused: [(String, String, String)] = [
            ("BENCHBOOK_LOOP_CHECKS", "maybe", "is not 0 or 1: "),
            ("BENCHBOOK_OPTIMIZE", "fast", "is not one of auto, off, on: "),
            ("BENCHBOOK_OUTPUT_LIMIT", "5MB", "is not a size: "),
            ("BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS", "-1", "is not a number of seconds: "),
            ("BENCHBOOK_CELL_CACHE_SIZE_MB", "0", "is not a whole number above 0: "),
        ]
        for (variable, value, says) in refused {
            XCTAssertThrowsError(try KernelSettings(environment: [variable: value])) {
                XCTAssertTrue("\($0)".hasPrefix("\(variable)=\(value) \(says)"), "\($0)")
                XCTAssertTrue("\($0)".hasSuffix("(docs/settings.md)"), "\($0)")
            }
        }
        XCTAssertThrowsError(try LibrarySettings(environment: ["BENCHBOOK_PRELOAD": "full"])) {
            XCTAssertTrue("\($0)".hasPrefix("BENCHBOOK_PRELOAD=full is not one of 0, 1, libraries: "), "\($0)")
        }
    }
}
