@testable import CellEngine
import CellSource
import Testing

/// The crash report read from a host's crash channel, and the magic line forms.
@Suite struct CrashReportTests {
    @Test func theChannelsRecordsAreRead() throws {
        let message = "In[4]:2: Fatal error: two\nlines\n"
        let text = "signal 4\nmessage \(message.utf8.count)\n\(message)\nframe 0x1a2b /tmp/benchbook-1/libCell4.so\n"
            + "frame 0x10 /usr/lib/lib c.so\nunknown record\nframe zz /x\n"
        let report = try #require(CrashReport(channel: Array(text.utf8)))
        #expect(report.signal == 4)
        #expect(report.writtenMessage == message)
        #expect(report.runtimeMessage == "Fatal error: two\nlines")
        #expect(report.frames == [.init(offset: 0x1a2b, library: "/tmp/benchbook-1/libCell4.so"),
                                  .init(offset: 0x10, library: "/usr/lib/lib c.so")])
        #expect(CrashReport(channel: []) == nil)
        let cut = try #require(CrashReport(channel: Array("signal 6\nmessage 99\nshort".utf8)))
        #expect(cut.signal == 6 && cut.writtenMessage == nil, "a record cut short by the host's end is skipped")
    }

    @Test func theSymbolizersLineBecomesTheCellAndLine() {
        #expect(CrashReport.cellLine(in: "/tmp/benchbook-1/In[7]:3:11\n") == "In[7], line 3")
        #expect(CrashReport.cellLine(in: "/tmp/benchbook-1/Cell7.swift:40:1\n") == nil)
        #expect(CrashReport.cellLine(in: "??:0:0\n") == nil)
    }

    @Test func aTrapsInlinedFrameNamesItsCause() {
        // llvm-symbolizer --functions=short --inlining at a `ud2` of a cell built with -O.
        let overflow = "Swift runtime failure: arithmetic overflow\n/<compiler-generated>:0:0\n__cell\n/tmp/benchbook-1/In[3]:2:5\n"
        #expect(CrashReport.runtimeFailure(in: overflow) == "Fatal error: arithmetic overflow")
        #expect(CrashReport.cellLine(in: overflow) == "In[3], line 2")
        let bounds = "Swift runtime failure: Index out of range\n/<compiler-generated>:0:0\n??\n/<compiler-generated>:0:0\n"
            + "subscript.get\n/<compiler-generated>:0:0\npick\n/tmp/benchbook-1/In[2]:3:12\n"
        #expect(CrashReport.runtimeFailure(in: bounds) == "Fatal error: Index out of range")
        #expect(CrashReport.cellLine(in: bounds) == "In[2], line 3")
        #expect(CrashReport.runtimeFailure(in: "pick\n/tmp/benchbook-1/In[2]:3:12\n") == nil, "a call, not a trap")
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
