import Foundation
@testable import SystemSupport
import XCTest

/// A process that adopts orphans becomes the parent of its orphaned descendants and reaps
/// those no ``ChildProcess`` owns.
///
/// Becoming a subreaper is for the life of the process (``Subreaper`` cannot undo it), and
/// it would make the test process inherit every other test's orphans. So the test starts a
/// copy of this test bundle that runs only this test, with ``roleVariable`` set, and that
/// copy becomes the subreaper.
final class SubreaperTests: XCTestCase {
    /// Set in the copy of the test process that becomes a subreaper.
    static let roleVariable = "BENCHBOOK_TEST_SUBREAPER"

    func testOrphansAreAdoptedAndReaped() throws {
        if ProcessInfo.processInfo.environment[Self.roleVariable] == "1" { return try adoptAndReapOrphans() }

        var environment = ProcessInfo.processInfo.environment
        environment[Self.roleVariable] = "1"
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let finished = DispatchSemaphore(value: 0)
        let copy = ChildProcess.Configuration(executable: bundle, arguments: ["SystemSupportTests.SubreaperTests/testOrphansAreAdoptedAndReaped"],
                                              environment: environment)
        let completion = try ChildProcess.run(copy) { process in
            // Hang guard: the copy needs well under a second.
            Thread { if finished.wait(timeout: .now() + 120) == .timedOut { process.signal(SIGKILL) } }.start()
        }
        finished.signal()
        XCTAssertEqual(completion.status, .exited(code: 0), completion.text)
        XCTAssertTrue(completion.text.contains("Executed 1 test, with 0 failures"), completion.text)
    }

    /// What the copy of the test process checks, as a subreaper.
    private func adoptAndReapOrphans() throws {
        // A new process is no subreaper (the setting is not inherited): its orphans would go
        // to init or to a subreaper above it.
        try Subreaper.adoptOrphans()
        let orphan = try startOrphan()
        XCTAssertEqual(parent(of: orphan), getpid(), "adopted")
        XCTAssertTrue(Subreaper.children().contains(orphan))
        XCTAssertEqual(kill(orphan, SIGKILL), 0)
        try waitUntilExited(orphan)
        XCTAssertEqual(state(of: orphan), "Z", "exited and not reaped yet")

        // A child a ChildProcess owns is left to it, exited or not.
        let owned = try ChildProcess(.init(executable: "/bin/sh", arguments: ["-c", "exit 7"]))
        try waitUntilExited(owned.pid)
        Subreaper.reapAdoptedOrphans()
        XCTAssertNil(state(of: orphan), "the adopted orphan is reaped: no zombie is left")
        XCTAssertFalse(Subreaper.children().contains(orphan))
        XCTAssertEqual(owned.waitForExit(), .exited(code: 7))

        // An adopted orphan can be taken in charge, signalled and reaped like a child.
        let adopted = try ChildProcess(adopting: startOrphan())
        XCTAssertEqual(adopted.kill(), .signalled(signal: SIGKILL))
    }

    /// Starts `sleep` from a shell that exits at once, and returns its pid: an orphan, whose
    /// new parent is set by the time the shell has been reaped.
    private func startOrphan() throws -> Int32 {
        let shell = ChildProcess.Configuration(executable: "/bin/sh",
                                               arguments: ["-c", "/bin/sleep 300 </dev/null >/dev/null 2>&1 & echo $!"])
        let completion = try ChildProcess.run(shell)
        XCTAssertEqual(completion.status, .exited(code: 0))
        return try XCTUnwrap(Int32(completion.text.trimmingCharacters(in: .whitespacesAndNewlines)), completion.text)
    }

    /// The fields of `/proc/<pid>/stat` after the command name; nil once the process is reaped.
    private func statFields(of pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: end)...].split(separator: " ")
    }

    /// The process's state letter ("S" sleeping, "Z" exited but not reaped).
    private func state(of pid: Int32) -> String? { statFields(of: pid).map { String($0[0]) } }

    /// The process's parent.
    private func parent(of pid: Int32) -> Int32? { statFields(of: pid).flatMap { Int32($0[1]) } }

    /// Waits until a child of this process exits, leaving it unreaped (`WNOWAIT`).
    private func waitUntilExited(_ pid: Int32) throws {
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { throw SystemError("waitid \(pid)") }
        }
    }
}
