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
    private var items: [Item] = []
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
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        return items.removeFirst()
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
