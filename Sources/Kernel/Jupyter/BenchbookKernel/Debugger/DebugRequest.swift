import JupyterWire

/// One Debug Adapter Protocol request, as the content of a `debug_request`.
struct DebugRequest: Equatable {
    /// The client's sequence number, echoed as `request_seq`.
    var seq: Int
    /// The DAP command (`initialize`, `inspectVariables`, …).
    var command: String
    /// The request's arguments (an empty object when it has none).
    var arguments: JSONValue

    /// Reads a request from a `debug_request`'s content.
    /// - Throws: ``MalformedDebugRequest`` naming what is missing.
    init(content: [String: JSONValue]) throws(MalformedDebugRequest) {
        guard content["type"]?.stringValue == "request" else {
            throw MalformedDebugRequest(seq: content["seq"]?.intValue, command: content["command"]?.stringValue,
                                        problem: "its \"type\" is not \"request\"")
        }
        guard let command = content["command"]?.stringValue, !command.isEmpty else {
            throw MalformedDebugRequest(seq: content["seq"]?.intValue, command: nil, problem: "it has no \"command\" string")
        }
        guard let seq = content["seq"]?.intValue else {
            throw MalformedDebugRequest(seq: nil, command: command, problem: "it has no integer \"seq\"")
        }
        let arguments = content["arguments"] ?? [:]
        guard arguments.objectValue != nil else {
            throw MalformedDebugRequest(seq: seq, command: command, problem: "its \"arguments\" is not an object")
        }
        self.seq = seq
        self.command = command
        self.arguments = arguments
    }

    init(seq: Int, command: String, arguments: JSONValue = [:]) {
        self.seq = seq
        self.command = command
        self.arguments = arguments
    }
}

/// A `debug_request` whose content is not a DAP request.
struct MalformedDebugRequest: Error, Equatable, CustomStringConvertible {
    var seq: Int?
    var command: String?
    var problem: String

    var description: String {
        "The kernel could not read this debug_request: \(problem). A debug_request's content is a Debug Adapter Protocol request: {\"type\": \"request\", \"seq\": 1, \"command\": \"initialize\", \"arguments\": {}}."
    }
}
