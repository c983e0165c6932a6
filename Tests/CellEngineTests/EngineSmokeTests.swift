import CellEngine
import EngineTestSupport
import XCTest

final class EngineSmokeTests: XCTestCase {
    func testBindingsPersistAcrossCells() throws {
        let engine = try makeEngine()
        let out = RecordingOutput()
        XCTAssertNil(engine.execute("let a = 41\nvar b = [1, 2]", label: "In[1]", output: out))
        XCTAssertNil(engine.execute("b.append(a)\nprint(b)\na + 1", label: "In[2]", output: out))
        XCTAssertEqual(out.stdout, "[1, 2, 41]\n")
        XCTAssertEqual(out.results, ["42"])
    }

    /// A cell's link leaves out libgcc.a; its routines (here `__divti3` for a 128-bit
    /// division) resolve from the libgcc_s the host has loaded, and a symbol that exists
    /// nowhere is still an error that names it.
    func testCompilerRuntimeRoutinesResolveAndMissingSymbolsAreNamed() throws {
        let engine = try makeEngine()
        let out = RecordingOutput()
        XCTAssertNil(engine.execute("let big = Int128(123_456_789_012) * 1000\nbig / 7", label: "In[1]", output: out))
        XCTAssertEqual(out.results, ["17636684144571"])
        let error = engine.execute("@_silgen_name(\"benchbook_nowhere\") func nowhere() -> Int32\nnowhere()",
                                   label: "In[2]", output: out)
        XCTAssertTrue(error?.value.contains("benchbook_nowhere") ?? false, "\(String(describing: error))")
        XCTAssertNil(engine.execute("big / 1000", label: "In[3]", output: out), "the kernel keeps serving")
        XCTAssertEqual(out.results.last, "123456789012")
    }

    /// The compiler lists every search directory on each compile: the cells' one holds
    /// their module files and nothing else, and later cells import through it.
    func testCellModulesDirectoryHoldsOnlyModuleFiles() throws {
        let engine = try makeEngine()
        let out = RecordingOutput()
        XCTAssertNil(engine.execute("struct Box { var side = 2 }\nlet box = Box()", label: "In[1]", output: out))
        XCTAssertNil(engine.execute("let area = box.side * Box(side: 3).side", label: "In[2]", output: out))
        XCTAssertNil(engine.execute("print(area)", label: "In[3]", output: out))
        XCTAssertEqual(out.stdout, "6\n")
        let modules = engine.configuration.cellModulesDirectory
        let files = try FileManager.default.contentsOfDirectory(atPath: modules.path).sorted()
        XCTAssertTrue(files.contains("Cell1.swiftmodule") && files.contains("Cell2.swiftmodule"), "\(files)")
        XCTAssertFalse(files.contains("Cell3.swiftmodule"), "a cell that binds nothing writes no module file")
        let kinds = Set(files.map { $0.split(separator: ".").dropFirst().joined(separator: ".") })
        XCTAssertTrue(kinds.isSubset(of: ["swiftmodule", "swiftdoc", "swiftsourceinfo"]), "\(files)")
        let work = try FileManager.default.contentsOfDirectory(atPath: engine.configuration.workDirectory.path)
        XCTAssertTrue(work.contains("libCell2.so") && !work.contains("Cell1.swiftmodule"), "\(work.sorted())")
    }
}
