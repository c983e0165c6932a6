import Foundation

/// The execution counter and what the kernel does with queued requests after an error.
///
/// `idle → running → idle`, or `running → aborting` when a cell fails with
/// `stop_on_error`; while aborting, queued execute requests are answered `aborted`
/// until the shell queue is empty.
struct ExecutionState {
    enum Phase: Equatable { case idle, running, aborting }

    private(set) var phase: Phase = .idle
    /// The `execution_count` of the last stored execution.
    private(set) var executionCount = 0

    /// Starts an execution; returns its count (incremented only when it is stored).
    mutating func begin(storeHistory: Bool) -> Int {
        precondition(phase == .idle, "an execution started while another was running")
        phase = .running
        if storeHistory { executionCount += 1 }
        return executionCount
    }

    /// When the last failure that started aborting was reported.
    private(set) var failureTime: Date?

    /// Ends an execution; a failure with `stop_on_error` starts aborting the queue.
    mutating func end(failed: Bool, stopOnError: Bool) {
        phase = failed && stopOnError ? .aborting : .idle
        failureTime = phase == .aborting ? Date() : nil
    }

    /// True when a queued request was sent before the failure was reported, so it
    /// belongs to the aborted queue. Requests sent after it (the user's next cell) run.
    func shouldAbort(sentAt date: Date?) -> Bool {
        guard phase == .aborting, let failureTime else { return false }
        guard let date else { return true }
        return date < failureTime
    }

    /// The queue is empty: back to serving requests normally.
    mutating func finishAborting() { phase = .idle }
}
