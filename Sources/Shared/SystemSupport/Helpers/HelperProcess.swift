import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Something that kills the process working for it when it is cancelled (a cell's
/// cancellation: an interrupt kills the helper working on that cell).
public protocol ProcessTracker: Sendable {
    /// Makes `process` the one a cancellation kills (at once when already cancelled).
    func track(_ process: ChildProcess)
    /// Forgets the tracked process.
    func untrack()
}

/// A helper program kept beside the kernel and spoken to in frames (``Framing``) on its
/// standard input and output, one request at a time: the cell parser and the cell
/// compiler. Their serving side is ``HelperService``, which reads a request whole before
/// it answers (the exchange writes the whole request before it reads the answer).
///
/// When it is started and started again is ``HelperLifecycle``'s rules: it starts on the
/// first request or ``warmUp()``; a request that fails (its deadline passed, its tracker
/// cancelled it, the helper exited or wrote a broken frame) kills the process and the next
/// request starts another; a helper that cannot be started, or that the caller marks as
/// failed (``fail(_:)``), waits out its ``RestartPolicy`` before the next start.
///
/// The process must ignore SIGPIPE (the kernel does), so a request written to a helper that
/// has exited fails instead of ending the kernel.
///
/// Thread rules: ``exchange(_:deadline:tracker:)`` and ``warmUp()`` may be called from any
/// thread and are served one at a time (a warm-up and the first request may race; the
/// request waits); ``stop()`` and ``fail(_:)`` may be called from any thread and never
/// wait for a request.
public final class HelperProcess: Sendable {
    /// Why an exchange gave no answer.
    public enum ExchangeError: Error, Sendable, Equatable {
        /// The helper could not be started, or waits after a failure.
        case unavailable(HelperUnavailable)
        /// The deadline passed, or the helper used its processor time; it was killed.
        case timedOut(ExitStatus)
        /// The helper ended (killed by its tracker, crashed, or its answer was unreadable);
        /// how it ended.
        case ended(ExitStatus)
    }

    private let configuration: ChildProcess.Configuration
    private let lifecycle: Mutex<HelperLifecycle<ChildProcess.Connection>>
    /// Held for the length of one exchange, so requests are served one at a time.
    private let serving = Mutex(())

    /// Describes a helper; nothing starts until the first request.
    /// - Parameters:
    ///   - name: the helper as a user reads it ("the cell parser").
    ///   - configuration: its program, arguments and limits (descriptors 0 and 1 are the pipes).
    ///   - policy: the waits after failures.
    public init(name: String, configuration: ChildProcess.Configuration, policy: RestartPolicy = .standard) {
        self.configuration = configuration
        lifecycle = Mutex(HelperLifecycle(helper: name, policy: policy))
    }

    deinit { stop() }

    /// Starts the helper ahead of its first request, unless it runs or waits after a failure.
    public func warmUp() {
        serving.withLock { _ in _ = try? running() }
    }

    /// Sends one request and waits for its answer.
    /// - Parameters:
    ///   - request: the request's payload.
    ///   - deadline: when to give up and kill the helper; nil waits as long as it runs.
    ///   - processorSeconds: kill the helper when it has used this much processor time on
    ///     the request: a bound that does not depend on what else the machine runs (the
    ///     wall-clock `deadline` is then only a guard against a helper that hangs).
    ///   - tracker: told which process serves the request, so a cancellation can kill it.
    /// - Returns: the answer's payload.
    /// - Throws: ``ExchangeError``.
    public func exchange(_ request: [UInt8], deadline: ContinuousClock.Instant? = nil, processorSeconds: Double? = nil,
                         tracker: (any ProcessTracker)? = nil) throws(ExchangeError) -> [UInt8] {
        try serving.withLock { _ in
            exchangeServing(request, deadline: deadline, processorSeconds: processorSeconds, tracker: tracker)
        }.get()
    }

    /// ``exchange(_:deadline:processorSeconds:tracker:)`` with `serving` held.
    private func exchangeServing(_ request: [UInt8], deadline: ContinuousClock.Instant?, processorSeconds: Double?,
                                 tracker: (any ProcessTracker)?) -> Result<[UInt8], ExchangeError> {
        let connection: ChildProcess.Connection
        do throws(HelperUnavailable) { connection = try running() } catch { return .failure(.unavailable(error)) }
        tracker?.track(connection.process)
        defer { tracker?.untrack() }
        do throws(ExchangeError) {
            let answer = try Self.exchange(request, on: connection, deadline: deadline, processorSeconds: processorSeconds)
            lifecycle.withLock { $0.served() }
            return .success(answer)
        } catch {
            stop()
            return .failure(error)
        }
    }

    /// Stops the helper on purpose; the next request starts it at once.
    /// - Returns: how it ended, or nil when none was running.
    @discardableResult
    public func stop() -> ExitStatus? {
        lifecycle.withLock { $0.stop() }.map(Self.end)
    }

    /// Stops the helper as failed (it said it cannot serve here): the next start waits out
    /// the restart policy.
    /// - Parameter reason: what it said, as a user reads it.
    /// - Returns: the error requests get meanwhile.
    @discardableResult
    public func fail(_ reason: String) -> HelperUnavailable {
        let (client, error) = lifecycle.withLock { $0.fail(reason, at: .now) }
        if let client { _ = Self.end(client) }
        return error
    }

    /// The running helper, started when none runs. Called with `serving` held.
    private func running() throws(HelperUnavailable) -> ChildProcess.Connection {
        let current = try lifecycle.withLock { lifecycle throws(HelperUnavailable) -> ChildProcess.Connection? in
            if let connection = lifecycle.client { return connection }
            _ = try lifecycle.needsStart(at: .now)
            return nil
        }
        if let current { return current }
        do {
            let connection = try ChildProcess.connected(configuration)
            connection.output.setNonBlocking()
            lifecycle.withLock { $0.started(connection) }
            return connection
        } catch {
            throw lifecycle.withLock { $0.fail("it could not be started: \(error)", at: .now) }.error
        }
    }

    /// Kills a helper and closes its pipes.
    private static func end(_ connection: ChildProcess.Connection) -> ExitStatus {
        let status = connection.process.kill()
        connection.input.close()
        connection.output.close()
        return status
    }

    /// How often the helper's processor time is read while a request with a processor
    /// budget waits.
    static let processorCheckMilliseconds: Int32 = 20

    /// Writes a request and reads its answer, killing the helper when the deadline passes
    /// or it has used its processor time.
    private static func exchange(_ request: [UInt8], on connection: ChildProcess.Connection,
                                 deadline: ContinuousClock.Instant?, processorSeconds: Double?) throws(ExchangeError) -> [UInt8] {
        let usedBefore = connection.process.processorSeconds ?? 0
        guard (try? connection.input.write(all: Framing.frame(request))) != nil else {
            throw .ended(connection.process.kill())
        }
        var decoder = Framing.Decoder()
        while true {
            var wait: Int32 = 60_000
            if let processorSeconds {
                if let used = connection.process.processorSeconds, used - usedBefore > processorSeconds {
                    throw .timedOut(connection.process.kill())
                }
                wait = processorCheckMilliseconds
            }
            if let deadline {
                let left = deadline - .now
                guard left > .zero else { throw .timedOut(connection.process.kill()) }
                let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                wait = Int32(max(1, min(Int64(wait), milliseconds)))
            }
            _ = try? FileDescriptor.poll([connection.output], timeout: wait)
            switch try? connection.output.read() {
            case .bytes(let bytes)?:
                guard let payloads = try? decoder.append(bytes) else { throw .ended(connection.process.kill()) }
                if let payload = payloads.first { return payload }
            case .wouldBlock?:
                continue
            case .endOfFile?, nil:
                throw .ended(connection.process.kill())
            }
        }
    }
}
