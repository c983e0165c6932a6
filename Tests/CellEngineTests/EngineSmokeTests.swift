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
}
