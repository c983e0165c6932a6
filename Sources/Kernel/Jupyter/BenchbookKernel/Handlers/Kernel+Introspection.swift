import CellCompletion
import CellEngine
import JupyterWire

extension Kernel {
    /// Serves `is_complete_request` with the Swift parser's judgement. Here and in
    /// completion and inspection, option lines (``CellOptions``) are blanked first, which
    /// keeps every cursor offset.
    func isComplete(_ request: Message) {
        let code = CellOptions.blanked(request.content["code"]?.stringValue ?? "")
        var content: [String: JSONValue]
        switch engine.completeness(of: code) {
        case .complete: content = ["status": "complete"]
        case .invalid: content = ["status": "invalid"]
        case .incomplete(let indent): content = ["status": "incomplete", "indent": .string(indent)]
        case .unknown: content = ["status": "unknown"]
        }
        channels.reply(on: channels.shell, to: request, type: "is_complete_reply", content: content)
    }

    /// Serves `complete_request` with ``CodeCompletion`` (SourceKit-LSP, or the
    /// notebook's own names when the server is unavailable). `cursor_pos`, `cursor_start`
    /// and `cursor_end` count Unicode code points of the cell.
    func complete(_ request: Message) {
        let code = CellOptions.blanked(request.content["code"]?.stringValue ?? "")
        let cursor = request.content["cursor_pos"]?.intValue ?? code.unicodeScalars.count
        let list = completion.complete(code: code, cursor: cursor)
        let types: [JSONValue] = list.matches.map { match in
            ["start": .number(Double(list.cursorStart)), "end": .number(Double(list.cursorEnd)),
             "text": .string(match.text), "type": .string(match.type), "signature": .string(match.signature)]
        }
        channels.reply(on: channels.shell, to: request, type: "complete_reply", content: [
            "status": "ok", "matches": .array(list.matches.map { .string($0.text) }),
            "cursor_start": .number(Double(list.cursorStart)), "cursor_end": .number(Double(list.cursorEnd)),
            "metadata": ["_jupyter_types_experimental": .array(types), "benchbook_source": .string(list.source.rawValue)],
        ])
    }

    /// Serves `inspect_request`: the signature and `///` documentation of the name at
    /// the cursor (or of the call around it), `found: false` when nothing is known.
    func inspect(_ request: Message) {
        let code = CellOptions.blanked(request.content["code"]?.stringValue ?? "")
        let cursor = request.content["cursor_pos"]?.intValue ?? code.unicodeScalars.count
        guard let found = completion.inspect(code: code, cursor: cursor) else {
            channels.reply(on: channels.shell, to: request, type: "inspect_reply", content: [
                "status": "ok", "found": false, "data": [:], "metadata": [:],
            ])
            return
        }
        channels.reply(on: channels.shell, to: request, type: "inspect_reply", content: [
            "status": "ok", "found": true,
            "data": ["text/plain": .string(found.plainText), "text/markdown": .string(found.markdown)], "metadata": [:],
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
