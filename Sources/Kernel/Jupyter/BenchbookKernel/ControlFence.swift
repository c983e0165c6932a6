import Foundation
import SystemSupport

/// Makes the control thread serve every control request that has reached the kernel
/// before the shell thread begins a cell, so that which cell an interrupt stops is decided
/// by arrival, never by a clock.
///
/// An `interrupt_request` applies to the cell compiling or running when the control thread
/// reads it. Shell and control are separate sockets, so without this fence a cell could
/// begin while an interrupt the client sent for the cell before it still waited unread on
/// control (the control thread busy with another request), and that interrupt would stop
/// the wrong cell. The client's header date used to decide it, and a client whose clock
/// stepped back had its interrupts dropped.
///
/// ```
/// shell:   pass() ──wake──▶ control: serve what waits on control ──served──▶ shell: begin the cell
/// ```
///
/// Thread rules: ``pass()`` on the shell thread; ``wakeDescriptor`` is polled and
/// ``served(upTo:)`` and ``takeRequests()`` are called on the control thread.
final class ControlFence: @unchecked Sendable {
    private let wake: (read: FileDescriptor, write: FileDescriptor)
    private let condition = NSCondition()
    private var requested = 0
    private var served = 0

    /// Creates a fence with its wake-up pipe.
    /// - Throws: ``SystemError`` when no pipe can be made.
    init() throws {
        wake = try FileDescriptor.pipe()
        wake.read.setNonBlocking()
    }

    deinit {
        wake.read.close()
        wake.write.close()
    }

    /// The descriptor the control thread polls beside its socket; readable when the shell
    /// thread waits at the fence.
    var wakeDescriptor: Int32 { wake.read.rawValue }

    /// Waits until the control thread has served what had reached control by now.
    func pass() {
        condition.lock()
        requested += 1
        let ticket = requested
        condition.unlock()
        _ = try? wake.write.write(all: [1])
        condition.lock()
        while served < ticket { condition.wait() }
        condition.unlock()
    }

    /// Wakes the control thread for other work (the debugger's replies), from any thread.
    func wakeControl() {
        _ = try? wake.write.write(all: [1])
    }

    /// Takes the wake-ups (control thread); returns the ticket to pass to
    /// ``served(upTo:)`` once every waiting control request has been served.
    func takeRequests() -> Int {
        while case .bytes? = try? wake.read.read(upTo: 256) {}
        condition.lock()
        defer { condition.unlock() }
        return requested
    }

    /// Lets the shell thread through for every ticket up to `ticket` (control thread).
    func served(upTo ticket: Int) {
        condition.lock()
        served = max(served, ticket)
        condition.broadcast()
        condition.unlock()
    }
}
