import CellEngine
import Foundation
import JupyterWire

extension Kernel {
    /// Serves `execute_request`: runs the cell and publishes what it produces. Quarto and
    /// MyST option lines at the top of the cell (``CellOptions``) are blanked before the
    /// engine sees it; `execute_input` and the history keep the cell as written.
    func execute(_ request: Message) {
        let code = request.content["code"]?.stringValue ?? ""
        let silent = request.content["silent"]?.boolValue ?? false
        let storeHistory = silent ? false : (request.content["store_history"]?.boolValue ?? true)
        let stopOnError = request.content["stop_on_error"]?.boolValue ?? true
        let allowStdin = request.content["allow_stdin"]?.boolValue ?? false

        let count = state.begin(storeHistory: storeHistory)
        if !silent {
            channels.publish("execute_input", parent: request, content: ["code": .string(code), "execution_count": .number(Double(count))])
        }
        if storeHistory { history.append(line: count, input: code) }

        let output = ExecutionOutput(kernel: self, request: request, executionCount: count, silent: silent, allowStdin: allowStdin)
        let label = storeHistory ? "In[\(count)]" : "In[\(count)+]"
        let failure = engine.execute(CellOptions.blanked(code), label: label, stamp: request.header.clientStamp, output: output)
        if let text = output.resultText, storeHistory { history.setOutput(text, line: count) }

        var content: [String: JSONValue] = ["execution_count": .number(Double(count))]
        if let failure {
            let error: [String: JSONValue] = [
                "ename": .string(failure.name), "evalue": .string(failure.value),
                "traceback": .array(failure.traceback.map(JSONValue.string)),
            ]
            if !silent { channels.publish("error", parent: request, content: error) }
            content.merge(error) { $1 }
            content["status"] = "error"
        } else {
            content["status"] = "ok"
            content["user_expressions"] = [:]
            content["payload"] = []
        }
        state.end(failed: failure != nil, stopOnError: stopOnError)
        channels.reply(on: channels.shell, to: request, type: "execute_reply", content: content,
                       metadata: ["status": content["status"] ?? "ok"])
    }

    /// Answers every execute request already queued with `aborted` (stop_on_error).
    /// Called after the failed request's `idle`, so each request's status pair stays together.
    func abortQueuedExecutions() {
        while true {
            readAhead.fill(from: channels)
            guard let queued = readAhead.next() else { break }
            if queued.type != "execute_request" {
                handleShell(queued)
                continue
            }
            guard state.shouldAbort(sentAt: queued.header.sentDate) else {
                // Sent after the failure was reported: the user's next cell, not the queue.
                state.finishAborting()
                handleShell(queued)
                return
            }
            channels.publishStatus("busy", parent: queued)
            channels.reply(on: channels.shell, to: queued, type: "execute_reply", content: [
                "status": "aborted", "execution_count": .number(Double(state.executionCount)),
            ], metadata: ["status": "aborted"])
            channels.publishStatus("idle", parent: queued)
        }
        state.finishAborting()
    }
}
