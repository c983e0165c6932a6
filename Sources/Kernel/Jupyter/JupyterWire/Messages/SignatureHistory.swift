import Foundation

/// The signatures of the signed messages a kernel has accepted, so that a message sent
/// again unchanged (a replay) is refused. ipykernel's session keeps such a digest
/// history for the same reason.
///
/// Bounded: it holds at most `capacity` signatures and forgets the oldest first, so a
/// replay is caught while its signature is among the last `capacity` accepted ones
/// (65,536 by default, as in jupyter_client's `Session.digest_history_size`).
///
/// Thread rules: safe from any thread; every method holds a lock.
public final class SignatureHistory: @unchecked Sendable {
    /// The default number of signatures remembered.
    public static let defaultCapacity = 65_536

    /// How many signatures are remembered at most.
    public let capacity: Int
    private let lock = NSLock()
    private var seen = Set<Data>()
    /// Signatures in the order they were accepted; `next` is where the next one goes.
    private var order: [Data] = []
    private var next = 0

    /// Creates an empty history.
    /// - Parameter capacity: how many signatures to remember (at least 1).
    public init(capacity: Int = SignatureHistory.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Records a signature.
    /// - Returns: false when it is already recorded (the message is a replay).
    public func insert(_ signature: Data) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !seen.contains(signature) else { return false }
        if order.count < capacity {
            order.append(signature)
        } else {
            seen.remove(order[next])
            order[next] = signature
            next = (next + 1) % capacity
        }
        seen.insert(signature)
        return true
    }

    /// How many signatures are remembered now.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return seen.count
    }
}
