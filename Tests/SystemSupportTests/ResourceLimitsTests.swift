import Foundation
@testable import SystemSupport
import XCTest

/// Limits given to a ``ChildProcess`` reach the program it runs.
final class ResourceLimitsTests: XCTestCase {
    /// The soft and hard value of one line of `/proc/<pid>/limits`, for example
    /// `["536870912", "536870912"]` for "Max address space".
    private func limit(_ name: String, of pid: String) throws -> [String] {
        let table = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try XCTUnwrap(table.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name) line")
        return line.dropFirst(name.count).split(separator: " ").prefix(2).map(String.init)
    }

    func testTheLimitsAreSetOnTheStartedProcess() throws {
        let limits = ResourceLimits(addressSpaceBytes: 512 << 20, cpuSeconds: 300)
        let child = try ChildProcess(.init(executable: "/bin/sleep", arguments: ["300"], limits: limits))
        defer { child.kill() }
        XCTAssertEqual(try limit("Max address space", of: "\(child.pid)"), ["536870912", "536870912"])
        XCTAssertEqual(try limit("Max cpu time", of: "\(child.pid)"), ["300", "300"])
    }

    func testANilLimitIsInherited() throws {
        let child = try ChildProcess(.init(executable: "/bin/sleep", arguments: ["300"], limits: .init(cpuSeconds: 300)))
        defer { child.kill() }
        XCTAssertEqual(try limit("Max address space", of: "\(child.pid)"), try limit("Max address space", of: "self"))
        XCTAssertEqual(try limit("Max cpu time", of: "\(child.pid)"), ["300", "300"])
        let unlimited = try ChildProcess(.init(executable: "/bin/sleep", arguments: ["300"], limits: .none))
        defer { unlimited.kill() }
        XCTAssertEqual(try limit("Max cpu time", of: "\(unlimited.pid)"), try limit("Max cpu time", of: "self"))
    }

    func testTheProgramSeesItsLimits() throws {
        // Limits are applied just after the program starts: the shell looks only once told to.
        let limits = ResourceLimits(addressSpaceBytes: 256 << 20, cpuSeconds: 120)
        let shell = try ChildProcess.connected(.init(executable: "/bin/sh", arguments: ["-c", "read go; ulimit -v; ulimit -t"],
                                                     limits: limits))
        defer { shell.output.close() }
        try shell.input.write(all: Array("go\n".utf8))
        shell.input.close()
        XCTAssertEqual(String(decoding: try shell.output.readToEnd(), as: UTF8.self), "262144\n120\n", "KiB and seconds")
        XCTAssertEqual(shell.process.waitForExit(), .exited(code: 0))
    }

    func testAProgramThatSpinsIsKilledAtItsCPULimit() throws {
        let child = try ChildProcess(.init(executable: "/bin/sh", arguments: ["-c", "while :; do :; done"],
                                           limits: .init(cpuSeconds: 1)))
        // Hang guard: one second of CPU, even on a busy machine, is far less than a minute.
        guard let status = child.waitForExit(timeout: 60) else {
            child.kill()
            return XCTFail("a spinning shell limited to 1 s of CPU still ran after 60 s")
        }
        // Soft and hard limit are equal: Linux sends SIGKILL at once, no SIGXCPU first.
        XCTAssertEqual(status, .signalled(signal: SIGKILL))
    }
}
