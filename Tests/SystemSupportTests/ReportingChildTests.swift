import Foundation
@testable import SystemSupport
import Testing

/// `ChildProcess.runReporting`: a child's result on descriptor 3 stays apart from whatever it
/// prints, a large report and large output both arrive whole (neither pipe blocks the child),
/// and `shouldStop` kills a child that would run on.
@Suite struct ReportingChildTests {
    static func shell(_ script: String) -> ChildProcess.Configuration {
        ChildProcess.Configuration(executable: "/bin/sh", arguments: ["-c", script], newProcessGroup: true)
    }

    @Test func theReportAndTheOutputArriveApart() throws {
        let report = try ChildProcess.runReporting(Self.shell("echo chatter; echo warning >&2; printf '{\"ok\":1}' >&3; exit 4"))
        #expect(String(decoding: report.report, as: UTF8.self) == "{\"ok\":1}")
        #expect(report.outputText == "chatter\nwarning\n")
        #expect(report.status == .exited(code: 4))
        #expect(!report.stopped)
    }

    @Test func largeReportsAndOutputsDoNotBlockTheChild() throws {
        // 1 MB on each pipe, far more than a pipe holds: both must be read as they fill.
        let script = "head -c 1048576 /dev/zero | tr '\\000' a >&3; head -c 1048576 /dev/zero | tr '\\000' b"
        let report = try ChildProcess.runReporting(Self.shell(script))
        #expect(report.report.count == 1_048_576 && report.report.allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(report.output.count == 1_048_576)
        #expect(report.status == .exited(code: 0))
    }

    @Test func shouldStopKillsTheChildAndItsGroup() throws {
        let start = ContinuousClock.now
        let report = try ChildProcess.runReporting(Self.shell("sleep 30 & sleep 30"),
                                                   shouldStop: { ContinuousClock.now - start > .milliseconds(300) })
        #expect(report.stopped)
        #expect(report.status == .signalled(signal: SIGKILL))
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func aMissingProgramIsASystemError() {
        #expect(throws: SystemError.self) {
            try ChildProcess.runReporting(ChildProcess.Configuration(executable: "/nonexistent/worker"))
        }
    }
}
