import JSONCore
import SystemSupport

/// What the kernel asks of a cell host. Commands are answered in the order sent.
public enum HostCommand: FramedMessage {
    /// Load a library with `RTLD_GLOBAL` (an earlier cell, after a restart). Answered only
    /// when it fails (``HostEvent/loadFailed(library:message:)``).
    case load(library: String)
    /// Load a cell's library and call its entry point. Answered by the notebook library's
    /// ``HostEvent/finished(bound:error:)`` from inside the cell, then
    /// ``HostEvent/done(_:)``.
    case run(cell: Int, library: String, symbol: String)
    /// The answer to the cell's ``HostEvent/inputRequest(prompt:password:)``.
    case inputReply(InputReply)
    /// Answered by ``HostEvent/synced(id:)`` once every earlier command was handled.
    case sync(id: Int)
    /// Deliver a front end's comm message to the callbacks a cell registered. Handled like
    /// a run: the callbacks run on a fresh thread, output and comm events follow, then
    /// ``HostEvent/done(_:)``, then a snapshot after execution `dispatch`. `requestID` is
    /// the `msg_id` of the request that carried it (an Output widget captures by it).
    case comm(CommTraffic, dispatch: Int, requestID: String)

    /// The command as a JSON object.
    public var json: JSONValue {
        switch self {
        case .load(let library):
            ["command": "load", "library": .string(library)]
        case .run(let cell, let library, let symbol):
            ["command": "run", "cell": .number(Double(cell)), "library": .string(library), "symbol": .string(symbol)]
        case .inputReply(let reply):
            JSONValue.object(["command": "input_reply"]).merging(reply.json)
        case .sync(let id):
            ["command": "sync", "id": .number(Double(id))]
        case .comm(let traffic, let dispatch, let requestID):
            JSONValue.object(traffic.members).merging([
                "command": "comm", "dispatch": .number(Double(dispatch)), "request_id": .string(requestID),
            ])
        }
    }

    /// Reads a command from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)``.
    public init(json: JSONValue) throws(FramingError) {
        let unknown = FramingError.unknownMessage(json.serializedText())
        switch json["command"]?.stringValue {
        case "load":
            guard let library = json["library"]?.stringValue else { throw unknown }
            self = .load(library: library)
        case "run":
            guard let cell = json["cell"]?.intValue, let library = json["library"]?.stringValue,
                  let symbol = json["symbol"]?.stringValue else { throw unknown }
            self = .run(cell: cell, library: library, symbol: symbol)
        case "input_reply":
            self = .inputReply(InputReply(json: json))
        case "sync":
            guard let id = json["id"]?.intValue else { throw unknown }
            self = .sync(id: id)
        case "comm":
            guard let traffic = CommTraffic(json: json), let dispatch = json["dispatch"]?.intValue else { throw unknown }
            self = .comm(traffic, dispatch: dispatch, requestID: json["request_id"]?.stringValue ?? "")
        default:
            throw unknown
        }
    }
}

/// The kernel's answer to an input request.
public enum InputReply: Sendable, Equatable {
    /// The text the user entered.
    case value(String)
    /// The front end does not take input (`allow_stdin` is false).
    case notAllowed
    /// The user interrupted the cell while it waited.
    case interrupted

    var json: JSONValue {
        switch self {
        case .value(let text): ["value": .string(text)]
        case .notAllowed: ["error": "not_allowed"]
        case .interrupted: ["error": "interrupted"]
        }
    }

    init(json: JSONValue) {
        if let value = json["value"]?.stringValue {
            self = .value(value)
        } else {
            self = json["error"]?.stringValue == "interrupted" ? .interrupted : .notAllowed
        }
    }
}

extension JSONValue {
    /// An object with the members of both (the other's win).
    func merging(_ other: JSONValue) -> JSONValue {
        .object((objectValue ?? [:]).merging(other.objectValue ?? [:]) { $1 })
    }
}
