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
}
