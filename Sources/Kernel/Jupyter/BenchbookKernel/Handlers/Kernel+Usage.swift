import JupyterWire

extension Kernel {
    /// Serves `usage_request` (control channel, as ipykernel does since 6.10; sent by
    /// jupyter-resource-usage's kernel panel): CPU and memory summed over the kernel's
    /// processes (see ``ResourceUsage``).
    func usage(_ request: Message, on socket: ZeroMQSocket) {
        channels.reply(on: socket, to: request, type: "usage_reply", content: resourceUsage.reply())
    }
}
