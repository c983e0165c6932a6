import CellEngine
import Foundation
import JupyterWire

/// The Benchbook kernel: serves the Jupyter messaging protocol over ZeroMQ and runs
/// cells through the ``CellEngine``.
///
/// Threads: the heartbeat echoes on its own thread; control requests (interrupt,
/// shutdown) are served on the control thread, so they get through while a cell runs;
/// shell requests, including execution, are served one at a time on the thread that
/// calls ``run()``.
public final class Kernel: @unchecked Sendable {
    let channels: Channels
    let engine: CellEngine
    var state = ExecutionState()
    var history = History()

    /// Binds the sockets of a connection file.
    /// - Parameters:
    ///   - connection: the parsed connection file.
    ///   - engine: the engine that compiles and runs cells.
    /// - Throws: ``ZeroMQError`` when a port cannot be bound.
    public init(connection: ConnectionInfo, engine: CellEngine) throws {
        channels = try Channels(connection: connection)
        self.engine = engine
        channels.answerUndecodable = { [unowned self] in answerUndecodable($0, on: $1) }
    }

    /// Serves until a shutdown request; never returns.
    public func run() -> Never {
        signal(SIGINT, SIG_IGN)
        let heartbeat = Thread { [channels] in channels.heartbeat.echoForever() }
        heartbeat.name = "heartbeat"
        heartbeat.start()
        let control = Thread { [self] in serveControl() }
        control.name = "control"
        control.start()
        channels.publishStatus("starting", parent: nil)
        DispatchQueue.global().async { [engine] in
            do { try engine.prepare() } catch { Log.warning("\(error)") }
        }
        while true {
            guard let request = channels.receive(on: channels.shell, channel: "shell") else { continue }
            handleShell(request)
            while state.phase == .aborting { abortQueuedExecutions() }
        }
    }

    private func serveControl() {
        while true {
            guard let request = channels.receive(on: channels.control, channel: "control") else { continue }
            channels.publishStatus("busy", parent: request)
            switch request.type {
            case "shutdown_request": shutdown(request, on: channels.control)
            case "interrupt_request":
                engine.interrupt()
                channels.reply(on: channels.control, to: request, type: "interrupt_reply", content: ["status": "ok"])
            case "kernel_info_request":
                channels.reply(on: channels.control, to: request, type: "kernel_info_reply", content: kernelInfo)
            default:
                unknown(request, on: channels.control)
            }
            channels.publishStatus("idle", parent: request)
        }
    }

    /// Serves one shell request between `busy` and `idle` status messages.
    func handleShell(_ request: Message) {
        channels.publishStatus("busy", parent: request)
        defer { channels.publishStatus("idle", parent: request) }
        let shell = channels.shell
        switch request.type {
        case "execute_request": execute(request)
        case "kernel_info_request":
            channels.reply(on: shell, to: request, type: "kernel_info_reply", content: kernelInfo)
        case "is_complete_request": isComplete(request)
        case "complete_request": complete(request)
        case "inspect_request": inspect(request)
        case "history_request": historyRequest(request)
        case "comm_info_request":
            channels.reply(on: shell, to: request, type: "comm_info_reply", content: ["status": "ok", "comms": [:]])
        case "comm_open":
            // No comm targets are registered: close it, as the spec asks.
            let id = request.content["comm_id"] ?? .null
            channels.publish("comm_close", parent: request, content: ["comm_id": id, "data": [:]])
        case "comm_msg", "comm_close": break
        case "shutdown_request": shutdown(request, on: shell)
        case "interrupt_request":
            engine.interrupt()
            channels.reply(on: shell, to: request, type: "interrupt_reply", content: ["status": "ok"])
        default: unknown(request, on: shell)
        }
    }

    private func unknown(_ request: Message, on socket: ZeroMQSocket) {
        Log.warning("unknown message type '\(request.type)'; ignored")
        guard request.type.hasSuffix("_request") else { return }
        let replyType = String(request.type.dropLast("_request".count)) + "_reply"
        channels.reply(on: socket, to: request, type: replyType, content: [
            "status": "error", "ename": "UnknownMessageType",
            "evalue": .string("Benchbook does not handle '\(request.type)' messages."), "traceback": [],
        ])
    }

    private func shutdown(_ request: Message, on socket: ZeroMQSocket) {
        let restart = request.content["restart"]?.boolValue ?? false
        engine.shutdown()
        channels.reply(on: socket, to: request, type: "shutdown_reply", content: ["status": "ok", "restart": .bool(restart)])
        channels.publishStatus("idle", parent: request)
        // Give ZeroMQ's I/O thread time to deliver the reply, then leave; a restarting
        // client starts a fresh kernel process.
        Thread.sleep(forTimeInterval: 0.2)
        Termination.end(status: 0, reason: "shutdown request")
    }
}
