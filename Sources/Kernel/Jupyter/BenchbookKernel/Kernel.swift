import CellCompletion
import CellEngine
import Foundation
import JupyterWire
import SystemSupport

/// The Benchbook kernel: serves the Jupyter messaging protocol over ZeroMQ and runs
/// cells through the ``CellEngine``.
///
/// Threads: the heartbeat echoes on its own thread; control requests (interrupt,
/// shutdown) are served on the control thread, so they get through while a cell runs;
/// shell requests, including execution, are served one at a time on the thread that
/// calls ``run()``. The handlers live in `Handlers/`, one file per concern.
public final class Kernel: @unchecked Sendable {
    let channels: Channels
    /// The engine that compiles and runs the cells.
    public let engine: CellEngine
    /// Completion and inspection; SourceKit-LSP starts on first use. Shell thread only.
    private(set) lazy var completion = CodeCompletion(engine: engine)
    var state = ExecutionState()
    var history = History()
    /// Shell requests already read from the socket (while looking for a newer widget
    /// update behind a stale one), served before the socket is read again. Shell thread only.
    var readAhead = ShellQueue()
    /// CPU and memory of the kernel's processes for `usage_request`. Control thread only.
    let resourceUsage = ResourceUsage()
    /// The Swift version of the toolchain that compiles cells, for `kernel_info`.
    let toolchainVersion: String
    /// Control requests that arrived before a cell are served before it begins.
    let controlFence: ControlFence
    /// JupyterLab's debugger: its session and the jobs it gives the shell thread.
    let debugger: Debugger

    /// Binds the sockets of a connection file, then makes the engine.
    ///
    /// The sockets come first: a client connects as soon as it has started the kernel, and
    /// a connection attempted before the port is bound costs it ZeroMQ's reconnect
    /// interval (100 ms by default) - more than the kernel takes to start.
    /// - Parameters:
    ///   - connection: the parsed connection file.
    ///   - listening: sockets `benchbook-kernel-launcher` has listened on since the kernel
    ///     started, by port (``InheritedListeners/take()``); they are used instead of binding.
    ///   - makeEngine: makes the engine that compiles and runs cells.
    /// - Throws: ``ZeroMQError`` when a port cannot be bound.
    public init(connection: ConnectionInfo, listening: [Int: Int32] = [:], makeEngine: () -> CellEngine) throws {
        channels = try Channels(connection: connection, listening: listening)
        controlFence = try ControlFence()
        engine = makeEngine()
        debugger = try Debugger(cellDirectory: engine.configuration.workDirectory.appendingPathComponent("debugger-cells"))
        toolchainVersion = engine.configuration.toolchainVersion ?? Self.builtWithSwift
        channels.answerUndecodable = { [unowned self] in answerUndecodable($0, on: $1) }
    }

    /// The Swift version the kernel itself was built with.
    static var builtWithSwift: String {
        #if swift(>=6.3)
        "6.3"
        #elseif swift(>=6.2)
        "6.2"
        #else
        "6"
        #endif
    }

    /// Serves until a shutdown request; never returns.
    public func run() -> Never {
        CurrentProcess.ignore(SIGINT)
        let heartbeat = Thread { [channels] in channels.heartbeat.echoForever() }
        heartbeat.name = "heartbeat"
        heartbeat.start()
        let control = Thread { [self] in serveControl() }
        control.name = "control"
        control.start()
        channels.publishStatus("starting", parent: nil)
        // The host loads the notebook library while the client connects and the user types
        // the first cell; the supervisor starts exactly one.
        engine.prepare()
        while true {
            guard let request = nextShellRequest() else { continue }
            handleShell(request)
            abortQueuedExecutions()
        }
    }

    /// The control thread: serves each request as it arrives, and when the shell thread
    /// waits at the ``ControlFence``, everything that waits on control before letting it on.
    private func serveControl() {
        while true {
            let ready = channels.control.waitForInput(orReadable: controlFence.wakeDescriptor, milliseconds: -1)
            if ready.descriptor {
                let ticket = controlFence.takeRequests()
                while channels.control.waitForInput(milliseconds: 0) { serveOneControlRequest() }
                controlFence.served(upTo: ticket)
                sendDebugReplies()
            } else if ready.message {
                serveOneControlRequest()
            }
        }
    }

    private func serveOneControlRequest() {
        guard let request = channels.receive(on: channels.control, channel: "control") else { return }
        channels.publishStatus("busy", parent: request)
        switch request.type {
        case "shutdown_request": shutdown(request, on: channels.control)
        case "interrupt_request": interrupt(request, on: channels.control)
        case "kernel_info_request": kernelInfo(request, on: channels.control)
        case "usage_request": usage(request, on: channels.control)
        case "debug_request": debugRequest(request)
        default: unknown(request, on: channels.control)
        }
        channels.publishStatus("idle", parent: request)
    }

    /// Serves one shell request between `busy` and `idle` status messages.
    func handleShell(_ request: Message) {
        serveDebugJobs(debugger.beginShellRequest())
        channels.publishStatus("busy", parent: request)
        defer {
            debugger.endShellRequest()
            channels.publishStatus("idle", parent: request)
        }
        let shell = channels.shell
        if Self.runsCode(request.type) { controlFence.pass() }
        switch request.type {
        case "execute_request": execute(request)
        case "kernel_info_request": kernelInfo(request, on: shell)
        case "is_complete_request": isComplete(request)
        case "complete_request": complete(request)
        case "inspect_request": inspect(request)
        case "history_request": historyRequest(request)
        case "comm_info_request": commInfo(request)
        case "comm_open", "comm_msg", "comm_close": commRequest(request)
        case "shutdown_request": shutdown(request, on: shell)
        case "interrupt_request": interrupt(request, on: shell)
        default: unknown(request, on: shell)
        }
    }

    /// Requests that run code in the cell host, which an interrupt can stop: an interrupt
    /// that arrived before one of them must be served before it begins (``ControlFence``).
    static func runsCode(_ type: String) -> Bool {
        ["execute_request", "comm_open", "comm_msg", "comm_close"].contains(type)
    }
}
