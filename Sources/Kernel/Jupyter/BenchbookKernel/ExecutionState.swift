/// The execution counter, and which queued requests a failed cell aborts.
///
/// ```
/// idle ──begin──▶ running ──end(ok, or failed without stop_on_error)──▶ idle
///                    │
///                    └──end(failed with stop_on_error, queued: n)──▶ aborting(n) ──take × n──▶ idle
/// ```
///
/// Which requests belong to the failed run is decided by what had reached the kernel when
/// the run failed, as ipykernel decides it (it drains its shell stream): the shell thread
/// reads every waiting request before it sends the failed request's reply, and passes their
/// number to ``end(failed:stopOnError:queued:)``. The next `n` requests taken are those;
/// execute requests among them are answered `aborted`, others are served. No clock is read,
/// so a client whose clock is ahead of or behind the kernel's gets the same answer: a
/// request sent after the failure's reply arrived cannot be among them.
///
/// An impossible event (an execution begun while another runs) is a programming error: it
/// traps in a debug build and is logged and repaired in a release build.
///
/// Thread rules: a value owned by the kernel's shell thread.
struct ExecutionState: Sendable {
    /// Where the kernel is between execute requests.
    enum Phase: Sendable, Equatable {
        case idle
        case running
        /// A run failed with `stop_on_error`; this many requests that had arrived by then
        /// are still to be taken.
        case aborting(remaining: Int)
    }

    /// What to do with a request taken while aborting.
    enum Verdict: Sendable, Equatable {
        /// Answer it `aborted`: an execute request queued behind the failure.
        case abort
        /// Serve it as usual.
        case serve
    }

    private(set) var phase: Phase = .idle
    /// The `execution_count` of the last stored execution.
    private(set) var executionCount = 0

    /// Starts an execution; returns its count (incremented only when it is stored).
    mutating func begin(storeHistory: Bool) -> Int {
        if phase != .idle { Self.impossible("an execution began while the kernel was \(phase)") }
        phase = .running
        if storeHistory { executionCount += 1 }
        return executionCount
    }

    /// Ends an execution.
    /// - Parameters:
    ///   - failed: the cell reported an error.
    ///   - stopOnError: the request's `stop_on_error`.
    ///   - queued: how many shell requests had arrived, unserved, when the run ended.
    mutating func end(failed: Bool, stopOnError: Bool, queued: Int) {
        if phase != .running { Self.impossible("an execution ended while the kernel was \(phase)") }
        phase = failed && stopOnError && queued > 0 ? .aborting(remaining: queued) : .idle
    }

    /// True while requests queued behind a failure remain to be taken.
    var isAborting: Bool {
        if case .aborting = phase { return true }
        return false
    }

    /// Takes the next queued request while aborting.
    /// - Parameter isExecute: the request is an `execute_request`.
    mutating func take(isExecute: Bool) -> Verdict {
        guard case .aborting(let remaining) = phase else {
            Self.impossible("a queued request was taken while the kernel was \(phase)")
            return .serve
        }
        phase = remaining > 1 ? .aborting(remaining: remaining - 1) : .idle
        return isExecute ? .abort : .serve
    }

    /// A transition the kernel's code should never ask for.
    private static func impossible(_ what: String) {
        assertionFailure(what)
        Log.warning("execution state: \(what); carrying on")
    }
}
