import JupyterWire

extension Kernel {
    /// Serves `comm_info_request`: no comm is open.
    func commInfo(_ request: Message) {
        channels.reply(on: channels.shell, to: request, type: "comm_info_reply", content: ["status": "ok", "comms": [:]])
    }

    /// Serves `comm_open`: no comm targets are registered, so the comm is closed, as the
    /// messaging spec asks.
    func commOpen(_ request: Message) {
        let id = request.content["comm_id"] ?? .null
        channels.publish("comm_close", parent: request, content: ["comm_id": id, "data": [:]])
    }
}
