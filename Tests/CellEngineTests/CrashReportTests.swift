@testable import CellEngine
import CellSource
import Testing

/// The crash report read from a host's standard error, and the magic line forms.
@Suite struct CrashReportTests {
    @Test func frameLinesAndRuntimeMessagesAreTakenOutOfTheStream() {
        var filter = StackTraceFilter()
        let shown = filter.append("""
        before
        In[4]:2: Fatal error: Index out of range
        @@benchbook-crash-frame@@ 0x1a2b /tmp/benchbook-1/libCell4.so
        partial@@benchbook-crash-frame@@ 0x10 /usr/lib/libc.so.6
        after

        """)
        #expect(shown == "before\nafter\n")
        #expect(filter.crash.frames == [.init(offset: 0x1a2b, library: "/tmp/benchbook-1/libCell4.so"),
                                         .init(offset: 0x10, library: "/usr/lib/libc.so.6")])
        #expect(filter.crash.runtimeMessage == "Fatal error: Index out of range")
    }

    @Test func aRuntimeMessageWithoutACrashIsShownAtTheEnd() {
        var filter = StackTraceFilter()
        _ = filter.append("Swift/Array.swift:12: Fatal error: not really\n")
        #expect(filter.heldBack() == "Swift/Array.swift:12: Fatal error: not really\n")
    }

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
