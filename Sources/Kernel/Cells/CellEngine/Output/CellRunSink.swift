import Foundation
import HostProtocol

/// The hand-over between the supervisor, which sees a running cell's output on the host's
/// reader thread, and the shell thread, which turns it into Jupyter messages.
///
/// Thread rules: the supervisor appends (under its lock, so outputs keep their order); the
/// shell thread takes with ``next()``. After ``finish(_:)`` nothing more is appended.
final class CellRunSink: @unchecked Sendable {
    /// One thing to hand over.
    enum Item: Sendable {
        case output(HostOutput)
        case end(RunEnd)
    }

    private let condition = NSCondition()
    /// Queued items; those before `head` were taken already.
    private var items: [Item] = []
    private var head = 0
    private var finished = false
    private var inputStopped = false

    /// Queues an output of the running cell.
    func append(_ output: HostOutput) {
        condition.lock()
        defer { condition.unlock() }
        guard !finished else { return }
        items.append(.output(output))
        condition.signal()
    }

    /// Queues the end of the run; later outputs are dropped.
    func finish(_ end: RunEnd) {
        condition.lock()
        defer { condition.unlock() }
        guard !finished else { return }
        finished = true
        items.append(.end(end))
        condition.signal()
    }

    /// Takes the next item, waiting for it.
    func next() -> Item {
        // Without a deadline the wait ends only with an item.
        next(until: nil)!
    }

    /// Takes the next item, waiting for it until `deadline`.
    /// - Parameter deadline: when to give up; nil waits as long as it takes.
    /// - Returns: the item, or nil when the deadline passed first.
    func next(until deadline: ContinuousClock.Instant?) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count {
            guard let deadline else {
                condition.wait()
                continue
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let (seconds, attoseconds) = left.components
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
        }
        let item = items[head]
        head += 1
        // Taken items are dropped in bulk once they are half the queue, so taking stays
        // O(1) (amortised) however long the queue, and taken output is not kept.
        if head == items.count || head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// Tells a wait for keyboard input to give up (the cell was interrupted).
    func stopInputWait() {
        condition.lock()
        inputStopped = true
        condition.unlock()
    }

    /// True once the cell's input wait should give up.
    var isInputWaitStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return inputStopped
    }
}
