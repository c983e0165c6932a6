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
        let failure = engine.execute(CellOptions.blanked(code), label: label, output: output)
        completion.loadLibraryAPILater()
        if let text = output.resultText, storeHistory { history.setOutput(text, line: count) }

        var content: [String: JSONValue] = ["execution_count": .number(Double(count))]
        if let failure {
            let error = Self.errorContent(failure)
            if !silent { channels.publish("error", parent: request, content: error) }
            content.merge(error) { $1 }
            content["status"] = "error"
        } else {
            content["status"] = "ok"
            content["user_expressions"] = .object(evaluate(request.content["user_expressions"]?.objectValue ?? [:],
                                                           for: request, executionCount: count))
            content["payload"] = []
        }
        // What has arrived by now was sent before the client saw this reply: with
        // stop_on_error, a failure aborts exactly those execute requests (ExecutionState).
        if failure != nil && stopOnError { readAhead.fill(from: channels) }
        state.end(failed: failure != nil, stopOnError: stopOnError, queued: readAhead.count)
        channels.reply(on: channels.shell, to: request, type: "execute_reply", content: content,
                       metadata: ["status": content["status"] ?? "ok"])
    }

    /// The `ename`, `evalue` and `traceback` fields of an error, for the `error` message,
    /// the error reply and a failed user expression.
    static func errorContent(_ failure: CellError) -> [String: JSONValue] {
        ["ename": .string(failure.name), "evalue": .string(failure.value),
         "traceback": .array(failure.traceback.map(JSONValue.string))]
    }

    /// Evaluates a request's `user_expressions` after its cell ran without error, each as a
    /// silent cell: `{"status": "ok", "data": <its result's MIME bundle>, "metadata": {}}`, or
    /// the error as in an error reply. A front end reads state this way without a cell of
    /// its own in the history.
    func evaluate(_ expressions: [String: JSONValue], for request: Message, executionCount: Int) -> [String: JSONValue] {
        var answers: [String: JSONValue] = [:]
        for (name, expression) in expressions.sorted(by: { $0.key < $1.key }) {
            let output = ExecutionOutput(kernel: self, request: request, executionCount: executionCount, silent: true, allowStdin: false)
            let code = expression.stringValue ?? ""
            if let failure = engine.execute(code, label: "In[\(executionCount)+]", output: output) {
                answers[name] = .object(Self.errorContent(failure).merging(["status": "error"]) { $1 })
            } else {
                answers[name] = ["status": "ok", "data": output.resultData ?? [:], "metadata": [:]]
            }
        }
        return answers
    }

    /// Takes the requests that had arrived when a cell failed with `stop_on_error`: execute
    /// requests are answered `aborted`, others are served. Called after the failed request's
    /// `idle`, so each request's status pair stays together.
    func abortQueuedExecutions() {
        while state.isAborting, let queued = readAhead.next() {
            guard state.take(isExecute: queued.type == "execute_request") == .abort else {
                handleShell(queued)
                continue
            }
            channels.publishStatus("busy", parent: queued)
            channels.reply(on: channels.shell, to: queued, type: "execute_reply", content: [
                "status": "aborted", "execution_count": .number(Double(state.executionCount)),
            ], metadata: ["status": "aborted"])
            channels.publishStatus("idle", parent: queued)
        }
    }
}
