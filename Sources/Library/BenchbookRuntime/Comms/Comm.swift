import Foundation
public import JSONCore
internal import HostProtocol

/// A Jupyter comm: a channel between code in the notebook and an object in the front end
/// (a widget's model, most often), opened by either side.
///
/// Open one from a cell with ``init(targetName:data:metadata:buffers:)``; receive the
/// front end's comms with ``CommTargets/register(_:handler:)``. Messages from the front
/// end reach ``onMessage(_:)`` between cells, on a thread of their own (see
/// ``CommTargets`` for when they run). Outside a kernel nothing is sent and nothing
/// arrives, so code that uses comms still runs in tests and scripts.
///
/// Thread rules: any method from any thread; handlers run one at a time.
public final class Comm: @unchecked Sendable {
    /// The comm's id (`comm_id`), a UUID.
    public let id: String
    /// The target it was opened to, for example `jupyter.widget`.
    public let targetName: String
    private let lock = NSLock()
    private var open = true
    private var messageHandler: ((CommMessage) throws -> Void)?
    private var closeHandler: ((CommMessage) throws -> Void)?

    /// Opens a comm to the front end's target `targetName` (`comm_open` on iopub).
    /// - Parameters:
    ///   - targetName: the front-end target, for example `jupyter.widget`.
    ///   - data: the open message's data (a widget's initial state).
    ///   - metadata: the open message's metadata (the widget protocol version).
    ///   - buffers: binary buffers sent with the open message.
    public convenience init(targetName: String, data: JSONValue = [:], metadata: JSONValue = [:],
                            buffers: [[UInt8]] = []) {
        self.init(id: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(), targetName: targetName)
        CommRouter.shared.register(self)
        KernelChannel.shared.send(.comm(CommTraffic(.open, commID: id, targetName: targetName, data: data,
                                                    metadata: metadata, buffers: buffers)))
    }

    /// A comm the front end opened (made by the router before the target's handler runs).
    init(id: String, targetName: String) {
        self.id = id
        self.targetName = targetName
    }

    /// True until either side closes the comm.
    public var isOpen: Bool { lock.withLock { open } }

    /// Sends a message to the front end's side of the comm (`comm_msg`). Does nothing once
    /// the comm is closed.
    /// - Parameters:
    ///   - data: the message's data.
    ///   - metadata: the message's metadata.
    ///   - buffers: binary buffers sent with it.
    public func send(_ data: JSONValue, metadata: JSONValue = [:], buffers: [[UInt8]] = []) {
        guard isOpen else { return }
        KernelChannel.shared.send(.comm(CommTraffic(.message, commID: id, data: data, metadata: metadata, buffers: buffers)))
    }

    /// Closes the comm on both sides (`comm_close`). Later sends do nothing.
    /// - Parameter data: the close message's data.
    public func close(_ data: JSONValue = [:]) {
        guard markClosed() else { return }
        CommRouter.shared.unregister(id)
        KernelChannel.shared.send(.comm(CommTraffic(.close, commID: id, data: data)))
    }

    /// Sets the handler of the front end's messages on this comm (replacing any earlier
    /// one). An error it throws is reported on the standard error of the message's request.
    public func onMessage(_ handler: @escaping (CommMessage) throws -> Void) {
        lock.withLock { messageHandler = handler }
    }

    /// Sets the handler called when the front end closes the comm.
    public func onClose(_ handler: @escaping (CommMessage) throws -> Void) {
        lock.withLock { closeHandler = handler }
    }

    /// Marks the comm closed; false when it already was.
    func markClosed() -> Bool {
        lock.withLock {
            defer { open = false }
            return open
        }
    }

    /// Calls the message handler (on the router's dispatch thread).
    func receive(_ message: CommMessage) throws {
        guard let handler = lock.withLock({ messageHandler }) else { return }
        try handler(message)
    }

    /// The front end closed the comm: calls the close handler once.
    func receiveClose(_ message: CommMessage) throws {
        guard markClosed(), let handler = lock.withLock({ closeHandler }) else { return }
        try handler(message)
    }
}

/// A message the front end sent on a comm.
public struct CommMessage: Sendable {
    /// The message's `data`.
    public var data: JSONValue
    /// The message's metadata.
    public var metadata: JSONValue
    /// The binary buffers that came with it.
    public var buffers: [[UInt8]]
    /// The `msg_id` of the front end's request that carried it.
    public var requestID: String

    /// Creates a message (for tests of code that handles comm messages).
    public init(data: JSONValue, metadata: JSONValue = [:], buffers: [[UInt8]] = [], requestID: String = "") {
        self.data = data
        self.metadata = metadata
        self.buffers = buffers
        self.requestID = requestID
    }
}
