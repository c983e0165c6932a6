import Foundation
import JupyterWire

/// An event written by the cell host or by the notebook library inside it.
enum HostEvent {
    case display(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool)
    case result(data: JSONValue, metadata: JSONValue)
    case inputRequest(prompt: String, password: Bool)
    case clearOutput(wait: Bool)
    /// The cell's body finished; `error` is set when it threw.
    case finished(bound: Int, error: (name: String, value: String)?)
    /// The host finished a `run` command.
    case done(status: Int, error: String?)
    case loadFailed(String)
    case unknown

    init(_ json: JSONValue) {
        switch json["event"]?.stringValue {
        case "display", "update_display":
            self = .display(data: json["data"] ?? [:], metadata: json["metadata"] ?? [:],
                            displayID: json["display_id"]?.stringValue,
                            isUpdate: json["event"]?.stringValue == "update_display")
        case "result":
            self = .result(data: json["data"] ?? [:], metadata: json["metadata"] ?? [:])
        case "input_request":
            self = .inputRequest(prompt: json["prompt"]?.stringValue ?? "", password: json["password"]?.boolValue ?? false)
        case "clear_output":
            self = .clearOutput(wait: json["wait"]?.boolValue ?? false)
        case "finished":
            let error = json["ename"]?.stringValue.map { ($0, json["evalue"]?.stringValue ?? "") }
            self = .finished(bound: json["bound"]?.intValue ?? 0, error: error)
        case "done":
            self = .done(status: json["status"]?.intValue ?? -1, error: json["error"]?.stringValue)
        case "load_failed":
            self = .loadFailed(json["error"]?.stringValue ?? "")
        default:
            self = .unknown
        }
    }
}

/// Splits the event pipe's bytes into frames (4-byte little-endian length, JSON).
struct EventFramer {
    private var buffer: [UInt8] = []

    /// Adds bytes and returns the complete events they finish.
    mutating func append(_ bytes: [UInt8]) -> [HostEvent] {
        buffer += bytes
        var events: [HostEvent] = []
        while buffer.count >= 4 {
            let length = Int(buffer[0]) | Int(buffer[1]) << 8 | Int(buffer[2]) << 16 | Int(buffer[3]) << 24
            guard buffer.count >= 4 + length else { break }
            let body = Data(buffer[4..<(4 + length)])
            buffer.removeFirst(4 + length)
            events.append((try? JSONDecoder().decode(JSONValue.self, from: body)).map(HostEvent.init) ?? .unknown)
        }
        return events
    }
}

/// Turns pipe bytes into text without splitting a UTF-8 sequence across two messages.
struct UTF8Stream {
    private var pending: [UInt8] = []

    /// Adds bytes and returns the text that is complete.
    mutating func append(_ bytes: [UInt8]) -> String {
        pending += bytes
        var end = pending.count
        // Back up over an unfinished multi-byte sequence at the end (at most 3 bytes).
        var back = 0
        while back < min(3, pending.count) {
            let byte = pending[pending.count - 1 - back]
            if byte & 0xC0 == 0x80 { back += 1; continue }
            if byte & 0x80 != 0 {
                let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if back + 1 < needed { end = pending.count - 1 - back }
            }
            break
        }
        let text = String(decoding: pending[0..<end], as: UTF8.self)
        pending.removeFirst(end)
        return text
    }
}

/// Removes the Swift runtime's "Current stack trace:" block from a crashing cell's
/// standard error (its frames name generated code and addresses, never the user's
/// lines) and the generated module names from runtime messages.
struct StackTraceFilter {
    private var partialLine = ""
    private var inTrace = false

    /// Adds text and returns what should be shown. An unfinished last line is held until
    /// its end arrives or ``flush()`` is called.
    mutating func append(_ text: String) -> String {
        let combined = partialLine + text
        var lines = combined.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        partialLine = lines.removeLast()
        return lines.filter { keep($0) }.map { Self.userFacing($0) + "\n" }.joined()
    }

    /// Returns the held partial line.
    mutating func flush() -> String {
        defer { partialLine = "" }
        return keep(partialLine) ? Self.userFacing(partialLine) : ""
    }

    /// Runtime messages name the cell's module in `#fileID` (`Cell47/In[50]:1`) and in
    /// type names (`Cell47.Point`); the user knows the cell only as `In[50]`.
    static func userFacing(_ line: String) -> String {
        line.replacing(/\bCell[0-9]+[\/.]/, with: "")
    }

    private mutating func keep(_ line: String) -> Bool {
        if line.hasPrefix("Current stack trace:") {
            inTrace = true
            return false
        }
        if inTrace, line.wholeMatch(of: /\s*[0-9]+\s+\S+\s+0x[0-9a-fA-F]+\s.*/) != nil { return false }
        inTrace = false
        return true
    }
}
