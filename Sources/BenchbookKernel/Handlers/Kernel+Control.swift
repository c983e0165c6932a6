import CellEngine
import Foundation
import JupyterWire

extension Kernel {
    /// Serves `interrupt_request`: the engine interrupts the cell that is compiling or
    /// running, if the client sent the request after that cell.
    func interrupt(_ request: Message, on socket: ZeroMQSocket) {
        engine.interrupt(request.header.clientStamp)
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

extension MessageHeader {
    /// Who sent the message and when, to tell an interrupt meant for an earlier cell.
    var clientStamp: ClientStamp {
        ClientStamp(session: session, date: sentDate?.timeIntervalSince1970)
    }

    /// The header's `date` as a point in time, to the microsecond, or nil when it is
    /// missing or unreadable.
    ///
    /// ISO 8601 with any number of fraction digits (jupyter_client writes six). The
    /// formatter reads at most milliseconds, so the fraction is read here: cut to
    /// milliseconds, a request sent within the same millisecond after a failure was
    /// reported looked sent before it, and was aborted as part of the failed queue.
    var sentDate: Date? {
        let fraction = date.firstMatch(of: /\.([0-9]+)/)
        let whole = fraction.map { date.replacingCharacters(in: $0.range, with: "") } ?? date
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let seconds = formatter.date(from: whole) else { return nil }
        guard let digits = fraction?.1, let part = Double("0." + digits) else { return seconds }
        return seconds.addingTimeInterval(part)
    }
}
