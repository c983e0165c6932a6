import Foundation
import JupyterWire

/// The kernel's five sockets and how messages are sent on them.
///
/// Thread rules: `shell` and `stdin` are used only by the shell thread, `control` only by
/// the control thread, `heartbeat` only by the heartbeat thread. `iopub` is shared and
/// every send goes through `publish`, which holds a lock.
final class Channels: @unchecked Sendable {
    let context: ZeroMQContext
    let shell: ZeroMQSocket
    let control: ZeroMQSocket
    let stdin: ZeroMQSocket
    let iopub: ZeroMQSocket
    let heartbeat: ZeroMQSocket
    let codec: WireCodec
    /// The session id of this kernel, in every header it sends.
    let session = UUID().uuidString.lowercased()
    private let iopubLock = NSLock()
    /// Answers a signed request that could not be decoded; set by the kernel.
    var answerUndecodable: ((UndecodableMessage, ZeroMQSocket) -> Void)?

    /// Binds the five sockets.
    /// - Parameters:
    ///   - connection: the connection file.
    ///   - listening: sockets already listening on some of its TCP ports, by port
    ///     (``InheritedListeners``); the other ports are bound here.
    /// - Throws: ``ChannelBindError`` naming the field of a port that cannot be bound,
    ///   ``ZeroMQError``, or ``WireError`` (unsupported signature scheme).
    init(connection: ConnectionInfo, listening: [Int: Int32] = [:]) throws {
        context = try ZeroMQContext()
        shell = try ZeroMQSocket(.router, context: context)
        control = try ZeroMQSocket(.router, context: context)
        stdin = try ZeroMQSocket(.router, context: context)
        iopub = try ZeroMQSocket(.publisher, context: context)
        heartbeat = try ZeroMQSocket(.reply, context: context)
        codec = WireCodec(signer: try MessageSigner(key: connection.key, scheme: connection.signatureScheme))
        try Self.secure([shell, control, stdin, iopub, heartbeat], connection: connection)
        for (socket, field, port) in [(shell, "shell_port", connection.shellPort), (control, "control_port", connection.controlPort),
                                      (stdin, "stdin_port", connection.stdinPort), (iopub, "iopub_port", connection.iopubPort),
                                      (heartbeat, "hb_port", connection.heartbeatPort)] {
            if connection.isIPv6 { try socket.enableIPv6() }
            let endpoint = connection.endpoint(port: port)
            do {
                try socket.bind(endpoint, listening: connection.transport == "tcp" ? listening[port] : nil)
            } catch let error as ZeroMQError {
                throw ChannelBindError(field: field, port: port, ip: connection.ip, endpoint: endpoint, underlying: error)
            }
        }
    }

    /// A new message answering or belonging to `parent`.
    func message(_ type: String, parent: Message?, content: [String: JSONValue],
                 metadata: [String: JSONValue] = [:], identities: [Data] = [], buffers: [Data] = []) -> Message {
        Message(identities: identities, header: MessageHeader(messageType: type, session: session),
                parentHeaderJSON: parent?.headerJSON ?? [:],
                metadata: metadata, content: content, buffers: buffers)
    }

    /// Sends a reply to `request` on the socket it came from.
    func reply(on socket: ZeroMQSocket, to request: Message, type: String, content: [String: JSONValue],
               metadata: [String: JSONValue] = [:]) {
        let reply = message(type, parent: request, content: content, metadata: metadata, identities: request.identities)
        do { try socket.send(codec.encode(reply)) } catch { Log.warning("could not send \(type): \(error)") }
    }

    /// Publishes a message on iopub. Safe from any thread.
    func publish(_ type: String, parent: Message?, content: [String: JSONValue], metadata: [String: JSONValue] = [:],
                 buffers: [Data] = []) {
        let message = message(type, parent: parent, content: content, metadata: metadata,
                              identities: [Data("kernel.\(session).\(type)".utf8)], buffers: buffers)
        iopubLock.lock()
        defer { iopubLock.unlock() }
        do { try iopub.send(codec.encode(message)) } catch { Log.warning("could not publish \(type): \(error)") }
    }

    /// Publishes the kernel's execution state (`busy`, `idle`, `starting`).
    func publishStatus(_ state: String, parent: Message?) {
        publish("status", parent: parent, content: ["execution_state": .string(state)])
    }

    /// Reads and drops every message waiting on `socket`, without blocking.
    /// - Returns: how many were dropped.
    func drain(_ socket: ZeroMQSocket) -> Int {
        var dropped = 0
        while socket.waitForInput(milliseconds: 0) {
            _ = try? socket.receive()
            dropped += 1
        }
        return dropped
    }

    /// Receives and decodes one message, logging and dropping what cannot be trusted.
    /// - Returns: nil when the message was dropped.
    func receive(on socket: ZeroMQSocket, channel: String) -> Message? {
        let frames: [Data]
        do { frames = try socket.receive() } catch {
            Log.warning("\(channel): receive failed: \(error)")
            return nil
        }
        do { return try codec.decode(frames) } catch {
            Log.warning("\(channel): \(error)")
            if case .undecodable(let message) = error { answerUndecodable?(message, socket) }
            return nil
        }
    }
}
