import CellEngine
import Foundation
import JupyterWire

extension Kernel {
    /// Serves `interrupt_request`: the engine interrupts the cell that is compiling or
    /// running when the request is read; between cells it does nothing. The header's date
    /// plays no part (a client's clock may step): ``ControlFence`` makes sure that an
    /// interrupt that arrived before a cell is served before that cell begins.
    func interrupt(_ request: Message, on socket: ZeroMQSocket) {
        engine.interrupt()
        channels.reply(on: socket, to: request, type: "interrupt_reply", content: ["status": "ok"])
    }

    /// Serves `shutdown_request`: stops the host, answers, and ends the kernel the way
    /// SIGTERM does (see ``Termination``: a compile cancelled, the process group signalled,
    /// the cell directory removed). A restarting client starts a fresh kernel process.
    func shutdown(_ request: Message, on socket: ZeroMQSocket) {
        let restart = request.content["restart"]?.boolValue ?? false
        engine.shutdown()
        channels.reply(on: socket, to: request, type: "shutdown_reply", content: ["status": "ok", "restart": .bool(restart)])
        channels.publishStatus("idle", parent: request)
        // Give ZeroMQ's I/O thread time to deliver the reply, then leave.
        Thread.sleep(forTimeInterval: 0.2)
        Termination.end(status: 0, reason: "shutdown request")
    }

    /// Answers a request the kernel does not handle: `*_request` gets a `*_reply` with
    /// status `error`; anything else is logged and dropped.
    func unknown(_ request: Message, on socket: ZeroMQSocket) {
        Log.warning("unknown message type '\(request.type)'; ignored")
        guard request.type.hasSuffix("_request") else { return }
        let replyType = String(request.type.dropLast("_request".count)) + "_reply"
        channels.reply(on: socket, to: request, type: replyType, content: [
            "status": "error", "ename": "UnknownMessageType",
            "evalue": .string("Benchbook does not handle '\(request.type)' messages."), "traceback": [],
        ])
    }
}
