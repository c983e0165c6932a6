import JupyterWire

/// Shell requests read from the socket ahead of the one being served, in arrival order.
///
/// The kernel reads ahead for two reasons: to answer queued executions with `aborted`
/// after a failure, and to skip a widget update that a newer one of the same widget makes
/// stale (a slider dragged faster than its callback runs). Shell thread only.
struct ShellQueue {
    private var messages: [Message] = []

    /// The oldest request read ahead, if any.
    mutating func next() -> Message? {
        messages.isEmpty ? nil : messages.removeFirst()
    }

    /// How many requests have been read ahead and not yet taken.
    var count: Int { messages.count }

    /// Reads every request waiting on the shell socket, without blocking.
    mutating func fill(from channels: Channels) {
        while channels.shell.waitForInput(milliseconds: 0) {
            if let message = channels.receive(on: channels.shell, channel: "shell") { messages.append(message) }
        }
    }

    /// True when a request read ahead is a widget `update` of comm `commID` that sets every
    /// attribute in `attributes` (and carries no buffers): the older update is stale.
    func hasNewerUpdate(commID: String, setting attributes: Set<String>) -> Bool {
        messages.contains { message in
            guard message.type == "comm_msg", message.buffers.isEmpty,
                  message.content["comm_id"]?.stringValue == commID,
                  let data = message.content["data"], data["method"]?.stringValue == "update",
                  let state = data["state"]?.objectValue else { return false }
            return attributes.isSubset(of: state.keys)
        }
    }
}
