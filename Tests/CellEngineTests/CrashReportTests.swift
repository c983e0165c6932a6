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
