import CellEngine
import Foundation
import JupyterWire

/// Turns what a cell produces into iopub messages for one request.
final class ExecutionOutput: CellOutput, @unchecked Sendable {
    private let kernel: Kernel
    private let request: Message
    private let executionCount: Int
    private let silent: Bool
    private let allowStdin: Bool
    /// The result's MIME bundle, kept for `user_expressions`.
    private(set) var resultData: JSONValue?
    /// The plain text of the result, kept for the history's output.
    var resultText: String? { resultData?["text/plain"]?.stringValue }

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

    /// Publishes a comm message from the host on iopub (even for a silent request: the
    /// front end's widget models must stay in step with the host's).
    func comm(_ traffic: CommTraffic) {
        var content: [String: JSONValue] = ["comm_id": .string(traffic.commID), "data": traffic.data]
        if traffic.kind == .open { content["target_name"] = .string(traffic.targetName ?? "") }
        kernel.channels.publish(traffic.kind.rawValue, parent: request, content: content,
                                metadata: traffic.metadata.objectValue ?? [:], buffers: traffic.buffers.map { Data($0) })
    }

    func result(data: JSONValue, metadata: JSONValue) {
        resultData = data
        guard !silent else { return }
        kernel.channels.publish("execute_result", parent: request, content: [
            "data": data, "metadata": metadata, "execution_count": .number(Double(executionCount)),
        ])
    }

    /// Sends `input_request` on stdin and waits for its `input_reply`, checking every
    /// 100 ms whether the cell was interrupted meanwhile.
    ///
    /// Each question gets its own answer (``InputReplyMatch``): what waits on stdin before
    /// the request is sent answers no question and is dropped, as ipykernel drops it, and a
    /// reply whose parent is another request is dropped too.
    func requestInput(prompt: String, password: Bool, isStopped: () -> Bool) -> InputAnswer {
        guard allowStdin else { return .notAllowed }
        let channels = kernel.channels
        let stale = channels.drain(channels.stdin)
        if stale > 0 { Log.warning("stdin: \(stale) message(s) sent before the input request were dropped") }
        let inputRequest = channels.message("input_request", parent: request,
                                            content: ["prompt": .string(prompt), "password": .bool(password)],
                                            identities: request.identities)
        do { try channels.stdin.send(channels.codec.encode(inputRequest)) } catch { return .notAllowed }
        let match = InputReplyMatch(requestID: inputRequest.header.messageID)
        while !isStopped() {
            guard channels.stdin.waitForInput(milliseconds: 100),
                  let reply = channels.receive(on: channels.stdin, channel: "stdin") else { continue }
            switch match.verdict(on: reply) {
            case .answer(let text): return .text(text)
            case .drop(let why): Log.warning("stdin: \(why); dropped")
            }
        }
        return .interrupted
    }
}
