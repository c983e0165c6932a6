import JupyterWire

extension Kernel {
    /// Answers a signed request whose content could not be decoded (invalid UTF-8, a
    /// list instead of an object): `busy`, an error reply naming the problem, `idle`,
    /// so the client does not wait forever. Messages that expect no reply (`comm_msg`,
    /// `input_reply`) are only logged, by the caller.
    /// - Parameters:
    ///   - message: the message as far as it could be read.
    ///   - socket: the socket it came from; the reply goes back on it.
    func answerUndecodable(_ message: UndecodableMessage, on socket: ZeroMQSocket) {
        guard let replyType = message.replyType, socket !== channels.stdin else { return }
        let request = message.replyParent
        var content: [String: JSONValue] = [
            "status": "error", "ename": "InvalidMessage",
            "evalue": .string("The kernel could not read this \(message.header.messageType): \(message.problem). Nothing was run."),
            "traceback": [],
        ]
        // Read on the shell thread only, which owns the execution state.
        if message.header.messageType == "execute_request", socket === channels.shell {
            content["execution_count"] = .number(Double(state.executionCount))
        }
        channels.publishStatus("busy", parent: request)
        channels.reply(on: socket, to: request, type: replyType, content: content, metadata: ["status": "error"])
        channels.publishStatus("idle", parent: request)
    }
}
