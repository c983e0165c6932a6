@testable import CellEngine
import CellSource
import Testing

/// The crash report read from a host's standard error, and the magic line forms.
@Suite struct CrashReportTests {
    @Test func theSymbolizersLineBecomesTheCellAndLine() {
        #expect(CrashReport.cellLine(in: "/tmp/benchbook-1/In[7]:3:11\n") == "In[7], line 3")
        #expect(CrashReport.cellLine(in: "/tmp/benchbook-1/Cell7.swift:40:1\n") == nil)
        #expect(CrashReport.cellLine(in: "??:0:0\n") == nil)
    }

    @Test func oneLineTimingMagicsKeepTheExpressionAtItsColumn() throws {
        let parsed = try #require(CellMagic.parse("%time 6 * 7"))
        #expect(parsed.magic == .success(.time))
        #expect(parsed.body == "      6 * 7")
        #expect(CellMagic.parse("%timeit 1\nlet z = 2")?.magic == .failure(.oneLineWithMore("%timeit")))
        #expect(CellMagic.parse("%time")?.magic == .failure(.nothingToTime("%time")))
        #expect(CellMagic.parse("%%time\nx")?.body == "\nx")
        #expect(CellMagic.parse("%frob\n1")?.magic == .failure(.unknown("%frob")))
    }
}
