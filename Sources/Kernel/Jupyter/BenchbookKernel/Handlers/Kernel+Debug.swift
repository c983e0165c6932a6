import CellEngine
import Foundation
import JupyterWire

/// JupyterLab's debugger (`debug_request` on control, `debug_reply`, `debug_event` on
/// IOPub): see ``Debugger`` for which thread does what, docs/debugger.md for what works.
extension Kernel {
    /// Serves `debug_request` (control thread): answers at once, or hands the job to the
    /// shell thread, whose reply ``sendDebugReplies()`` sends.
    func debugRequest(_ request: Message) {
        guard let step = debugger.receive(request) else { return }
        guard case .reply(let reply, let events) = step else { return }
        channels.reply(on: channels.control, to: request, type: "debug_reply", content: reply.objectValue ?? [:])
        for event in events {
            channels.publish("debug_event", parent: request, content: event.objectValue ?? [:])
        }
    }

    /// Sends the replies the shell thread made (control thread).
    func sendDebugReplies() {
        for (request, reply) in debugger.takeReplies() {
            channels.reply(on: channels.control, to: request, type: "debug_reply", content: reply.objectValue ?? [:])
        }
    }

    /// Runs the debugger's jobs with the engine (shell thread): one read of the variables
    /// answers every `inspectVariables` queued, then each rich view.
    func serveDebugJobs(_ jobs: [Debugger.Job]) {
        guard !jobs.isEmpty else { return }
        let inspections = jobs.filter { if case .inspectVariables = $0.step { true } else { false } }
        if !inspections.isEmpty {
            switch engine.inspectVariables() {
            case .success(let variables):
                let entries = variables.map(VariableEntry.init)
                for job in inspections { debugger.answer(job, variables: entries) }
            case .failure(let error):
                for job in inspections { debugger.answer(job, failure: "\(error.name): \(error.value)") }
            }
        }
        for job in jobs {
            guard case .richInspect(_, let name) = job.step else { continue }
            switch engine.richInspect(name) {
            case .success(let shown): debugger.answer(job, data: shown.data, metadata: shown.metadata)
            case .failure(let error): debugger.answer(job, failure: "\(error.name): \(error.value)")
            }
        }
        controlFence.wakeControl()
    }

    /// The next shell request, serving the debugger's jobs while waiting for it (shell thread).
    /// - Returns: nil when woken for the debugger or when the message was dropped.
    func nextShellRequest() -> Message? {
        if let queued = readAhead.next() { return queued }
        let ready = channels.shell.waitForInput(orReadable: debugger.wakeDescriptor, milliseconds: -1)
        if ready.descriptor { serveDebugJobs(debugger.takeJobs()) }
        guard ready.message else { return nil }
        return channels.receive(on: channels.shell, channel: "shell")
    }
}
