import CellEngine
import JupyterWire

extension Kernel {
    /// Serves `is_complete_request` with the Swift parser's judgement.
    func isComplete(_ request: Message) {
        let code = request.content["code"]?.stringValue ?? ""
        var content: [String: JSONValue]
        switch Completeness(code: code) {
        case .complete: content = ["status": "complete"]
        case .invalid: content = ["status": "invalid"]
        case .incomplete(let indent): content = ["status": "incomplete", "indent": .string(indent)]
        }
        channels.reply(on: channels.shell, to: request, type: "is_complete_reply", content: content)
    }

    /// Serves `complete_request`. Completion has its own issue; until then the reply is
    /// valid and empty.
    func complete(_ request: Message) {
        let cursor = request.content["cursor_pos"] ?? 0
        channels.reply(on: channels.shell, to: request, type: "complete_reply", content: [
            "status": "ok", "matches": [], "cursor_start": cursor, "cursor_end": cursor, "metadata": [:],
        ])
    }

    /// Serves `inspect_request`; valid and empty until inspection lands.
    func inspect(_ request: Message) {
        channels.reply(on: channels.shell, to: request, type: "inspect_reply", content: [
            "status": "ok", "found": false, "data": [:], "metadata": [:],
        ])
    }

    /// Serves `history_request` (tail, range and search).
    func historyRequest(_ request: Message) {
        let content = request.content
        let withOutput = content["output"]?.boolValue ?? false
        let entries: [History.Entry]
        switch content["hist_access_type"]?.stringValue ?? "tail" {
        case "range":
            entries = history.range(start: content["start"]?.intValue ?? 0, stop: content["stop"]?.intValue ?? 0)
        case "search":
            entries = history.search(pattern: content["pattern"]?.stringValue ?? "*",
                                     count: content["n"]?.intValue ?? 0, unique: content["unique"]?.boolValue ?? false)
        default:
            entries = history.tail(content["n"]?.intValue ?? 10)
        }
        let rows: [JSONValue] = entries.map { entry in
            let input: JSONValue = withOutput
                ? [.string(entry.input), entry.output.map(JSONValue.string) ?? .null]
                : .string(entry.input)
            return [.number(Double(entry.session)), .number(Double(entry.line)), input]
        }
        channels.reply(on: channels.shell, to: request, type: "history_reply", content: ["status": "ok", "history": .array(rows)])
    }
}
