import CellEngine
import Foundation
import JupyterWire

extension Kernel {
    /// Serves `execute_request`: runs the cell and publishes what it produces.
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
        let failure = engine.execute(code, label: label, output: output)
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
        while channels.shell.waitForInput(milliseconds: 0) {
            guard let queued = channels.receive(on: channels.shell, channel: "shell") else { continue }
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

extension MessageHeader {
    /// The header's `date` as a point in time, or nil when it is missing or unreadable.
    var sentDate: Date? {
        // ISO 8601 with up to microseconds; the formatter takes at most milliseconds.
        let trimmed = date.replacing(/(\.[0-9]{3})[0-9]+/) { $0.1 }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let parsed = formatter.date(from: trimmed) { return parsed }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: trimmed)
    }
}

/// Turns what a cell produces into iopub messages for one request.
final class ExecutionOutput: CellOutput {
    private let kernel: Kernel
    private let request: Message
    private let executionCount: Int
    private let silent: Bool
    private let allowStdin: Bool
    /// The plain text of the result, kept for the history's output.
    private(set) var resultText: String?

    init(kernel: Kernel, request: Message, executionCount: Int, silent: Bool, allowStdin: Bool) {
        self.kernel = kernel
        self.request = request
        self.executionCount = executionCount
        self.silent = silent
        self.allowStdin = allowStdin
    }

    func stream(name: String, text: String) {
        guard !silent else { return }
        kernel.channels.publish("stream", parent: request, content: ["name": .string(name), "text": .string(text)])
    }

    func display(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool) {
        guard !silent else { return }
        var content: [String: JSONValue] = ["data": data, "metadata": metadata]
        content["transient"] = displayID.map { ["display_id": .string($0)] } ?? [:]
        kernel.channels.publish(isUpdate ? "update_display_data" : "display_data", parent: request, content: content)
    }

    func clearOutput(wait: Bool) {
        guard !silent else { return }
        kernel.channels.publish("clear_output", parent: request, content: ["wait": .bool(wait)])
    }

    func result(data: JSONValue, metadata: JSONValue) {
        resultText = data["text/plain"]?.stringValue
        guard !silent else { return }
        kernel.channels.publish("execute_result", parent: request, content: [
            "data": data, "metadata": metadata, "execution_count": .number(Double(executionCount)),
        ])
    }

    func requestInput(prompt: String, password: Bool) -> String? {
        guard allowStdin else { return nil }
        let channels = kernel.channels
        let inputRequest = channels.message("input_request", parent: request,
                                            content: ["prompt": .string(prompt), "password": .bool(password)],
                                            identities: request.identities)
        do { try channels.stdin.send(channels.codec.encode(inputRequest)) } catch { return nil }
        while true {
            guard let reply = channels.receive(on: channels.stdin, channel: "stdin") else { continue }
            if reply.type == "input_reply" { return reply.content["value"]?.stringValue ?? "" }
        }
    }
}
