/// How long a helper process that failed waits before it is started again: ``firstDelay``
/// after one failure, doubled by each further failure in a row, never more than
/// ``longestDelay``.
public struct RestartPolicy: Sendable, Equatable {
    /// The wait after the first failure in a row.
    public var firstDelay: Duration
    /// The longest wait, however many failures came in a row.
    public var longestDelay: Duration

    /// Creates a policy.
    /// - Parameters:
    ///   - firstDelay: the wait after one failure.
    ///   - longestDelay: the cap on the doubled waits.
    public init(firstDelay: Duration, longestDelay: Duration) {
        self.firstDelay = firstDelay
        self.longestDelay = longestDelay
    }

    /// One second after a failure, doubling up to a minute: a helper that cannot start
    /// costs one attempt a minute at most, and one that failed once is back within a second.
    public static let standard = RestartPolicy(firstDelay: .seconds(1), longestDelay: .seconds(60))

    /// The wait after `failures` failures in a row (zero for none).
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = firstDelay
        for _ in 1..<failures where delay < longestDelay { delay *= 2 }
        return min(delay, longestDelay)
    }
}

/// A helper that cannot serve now: it failed and waits out its ``RestartPolicy``.
public struct HelperUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// The helper, as a user reads it ("the cell compiler").
    public var helper: String
    /// Why it failed last.
    public var reason: String
    /// How long until the next start is tried.
    public var retryIn: Duration

    /// Creates the error.
    public init(helper: String, reason: String, retryIn: Duration) {
        self.helper = helper
        self.reason = reason
        self.retryIn = retryIn
    }

    public var description: String {
        let seconds = Double(retryIn.components.seconds) + Double(retryIn.components.attoseconds) / 1e18
        return "\(helper) is not available (\(reason)); it is started again in \(Int(seconds.rounded(.up))) s"
    }
}

/// The life of one helper process, as a state machine without processes or clocks: the
/// one place that decides when a helper is started, kept, stopped and started again.
///
/// The rules:
/// - Nothing runs until the first request (or a warm-up) asks for the helper.
/// - A helper that is stopped on purpose (``stop()``: a request killed for its deadline or
///   its cell's interrupt, an idle stop, shutdown) is started again at the next request:
///   the failure belonged to the request, not to the helper.
/// - A helper that cannot be started, or that says it cannot serve here (``fail(_:at:)``),
///   is not started again before its ``RestartPolicy`` delay; meanwhile requests get
///   ``HelperUnavailable``, which says when the next attempt is. Never given up for good.
/// - A helper that served a request (``served()``) is healthy again: its next failure
///   waits only the first delay.
///
/// Thread rules: a value type; its owner keeps it under a lock and does the blocking work
/// (starting, killing) outside that lock with the client the methods hand back.
public struct HelperLifecycle<Client> {
    /// Where the helper is.
    public enum State {
        /// Not running; the next request starts it.
        case stopped
        /// Running.
        case running(Client)
        /// Failed; no start before `until`.
        case waiting(until: ContinuousClock.Instant, reason: String)
    }

    /// The helper, as a user reads it ("the cell compiler").
    public let helper: String
    /// When a failed helper is started again.
    public let policy: RestartPolicy
    /// Where the helper is.
    public private(set) var state = State.stopped
    /// Failures since it last served a request.
    public private(set) var failuresInARow = 0

    /// Creates the life of a helper that has not started.
    /// - Parameters:
    ///   - helper: its name in messages.
    ///   - policy: its waits after failures.
    public init(helper: String, policy: RestartPolicy = .standard) {
        self.helper = helper
        self.policy = policy
    }

    /// The running client.
    public var client: Client? {
        if case .running(let client) = state { return client }
        return nil
    }

    /// Whether `start` may be called now: the helper is not running and not waiting.
    /// - Parameter now: the time.
    /// - Throws: ``HelperUnavailable`` while it waits after a failure.
    /// - Returns: false when it is running already.
    public func needsStart(at now: ContinuousClock.Instant) throws(HelperUnavailable) -> Bool {
        switch state {
        case .running: return false
        case .stopped: return true
        case .waiting(let until, let reason):
            guard now >= until else { throw HelperUnavailable(helper: helper, reason: reason, retryIn: until - now) }
            return true
        }
    }

    /// Records a started client.
    public mutating func started(_ client: Client) {
        state = .running(client)
    }

    /// Records that the helper served a request.
    public mutating func served() {
        failuresInARow = 0
    }

    /// Stops the helper on purpose; the next request starts it at once (a waiting helper
    /// keeps waiting).
    /// - Returns: the client that ran, for the caller to end.
    public mutating func stop() -> Client? {
        guard case .running(let client) = state else { return nil }
        state = .stopped
        return client
    }

    /// Records a failure: the helper could not start, or cannot serve here.
    /// - Parameters:
    ///   - reason: what went wrong, as a user reads it.
    ///   - now: the time.
    /// - Returns: the client that ran, for the caller to end; and the error requests get
    ///   until the next start.
    public mutating func fail(_ reason: String, at now: ContinuousClock.Instant) -> (client: Client?, error: HelperUnavailable) {
        let client = self.client
        failuresInARow += 1
        let delay = policy.delay(afterFailures: failuresInARow)
        state = .waiting(until: now + delay, reason: reason)
        return (client, HelperUnavailable(helper: helper, reason: reason, retryIn: delay))
    }
}

extension HelperLifecycle: Sendable where Client: Sendable {}
extension HelperLifecycle.State: Sendable where Client: Sendable {}
