import Foundation
import Synchronization
@testable import SystemSupport
import XCTest

/// The kernel reaps adopted orphans (old cell-host snapshots) while other threads start
/// and reap their own children (the compiler, `llvm-symbolizer`). A child that exits at
/// once must never be taken for an orphan: its owner would lose its exit status, or fail
/// to open its pidfd (which, in the kernel, lost the line of a trap in a cell).
final class ChildProcessReapingTests: XCTestCase {
    /// The command name of a child, even once it has exited (a zombie keeps it).
    static func commandName(_ pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testOwnedChildrenAreNeverReapedAsOrphans() throws {
        let sweeping = Mutex(true)
        let sweeper = Thread {
            // Only this test's children (`sleep`): other tests start processes too.
            while sweeping.withLock({ $0 }) {
                Subreaper.reapAdoptedOrphans { Self.commandName($0) == "sleep" }
            }
        }
        sweeper.start()
        defer { sweeping.withLock { $0 = false } }

        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                for _ in 0..<150 {
                    do {
                        let completion = try ChildProcess.run(.init(executable: "/bin/sleep", arguments: ["0"]))
                        if completion.status != .exited(code: 0) {
                            failures.withLock { $0.append("status \(completion.status)") }
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }.start()
        }
        group.wait()
        let failed = failures.withLock { $0 }
        XCTAssert(failed.isEmpty, "\(failed.count) of 300 owned children were reaped by the orphan sweep: \(failed.first ?? "")")
    }
}
