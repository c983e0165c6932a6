import Dispatch
import Foundation
import Glibc
@testable import SystemSupport
import Testing

/// The one parent-death watch, on the cases a test process can make: its own parent (alive),
/// a process that is not its parent, one that is gone, and init. The watch of a parent that
/// really exits is tested end to end by Tests/python/test_kernel_lifecycle.py (the kernel,
/// its cell host and its compiler end when the process that started them is killed).
@Suite struct ParentExitTests {
    /// Waits for the handler with a hang guard.
    static func called(_ semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 10) == .success
    }

    @Test func aLiveParentIsNotTakenForGone() throws {
        let semaphore = DispatchSemaphore(value: 0)
        #expect(try CurrentProcess.whenParentExits { semaphore.signal() })
        #expect(semaphore.wait(timeout: .now() + 0.3) == .timedOut)
    }

    @Test func aProcessThatIsNotTheParentAnyMoreIsGoneAtOnce() throws {
        let child = try ChildProcess(.init(executable: "/bin/sleep", arguments: ["30"]))
        defer { _ = child.kill() }
        let semaphore = DispatchSemaphore(value: 0)
        #expect(try CurrentProcess.whenParentExits(child.pid) { semaphore.signal() })
        #expect(Self.called(semaphore), "alive, but not this process's parent")
    }

    @Test func aProcessThatExitedIsGoneAtOnce() throws {
        let child = try ChildProcess(.init(executable: "/bin/true"))
        _ = child.waitForExit()
        let semaphore = DispatchSemaphore(value: 0)
        #expect(try CurrentProcess.whenParentExits(child.pid) { semaphore.signal() })
        #expect(Self.called(semaphore))
    }

    /// The pidfds of this process numbered `lowest` or above.
    static func pidfds(from lowest: Int32) -> Set<Int32> {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(entries.compactMap(Int32.init).filter { number in
            number >= lowest
                && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(number)")) == "anon_inode:[pidfd]"
        })
    }

    @Test func theWatchsDescriptorIsNumberedFromTheLowestAsked() throws {
        let before = Self.pidfds(from: 500)
        let semaphore = DispatchSemaphore(value: 0)
        #expect(try CurrentProcess.whenParentExits(descriptorsFrom: 500) { semaphore.signal() })
        #expect(Self.pidfds(from: 500).subtracting(before).count == 1, "the watch holds a pidfd numbered 500 or above (far above what this process has open)")
        #expect(semaphore.wait(timeout: .now() + 0.1) == .timedOut)
    }

    @Test func initAndOtherNamespacesAreNotWatched() throws {
        #expect(try !CurrentProcess.whenParentExits(1) { Issue.record("init is never watched") })
        #expect(try !CurrentProcess.whenParentExits(0) { Issue.record("0 is never watched") })
    }
}
