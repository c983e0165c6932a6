import JSONCore
import SystemSupport

/// What a cell host, and the notebook library inside it, tell the kernel.
public enum HostEvent: FramedMessage {
    /// `display(...)` or a display handle's update: a MIME bundle and its metadata.
    case display(Display)
    /// The value of the cell's last expression.
    case result(data: JSONValue, metadata: JSONValue)
    /// `clearOutput(wait:)`.
    case clearOutput(wait: Bool)
    /// `input(_:password:)` asks the user; the kernel answers with
    /// ``HostCommand/inputReply(_:)``.
    case inputRequest(prompt: String, password: Bool)
    /// The cell's body ended: `bound` of its bindings were initialised, and `error` is
    /// what it threw, if anything.
    case finished(bound: Int, error: ThrownError?)
    /// The host finished a ``HostCommand/run(cell:library:symbol:)``.
    case done(RunOutcome)
    /// A ``HostCommand/load(library:)`` failed.
    case loadFailed(library: String, message: String)
    /// Every command before ``HostCommand/sync(id:)`` was handled.
    case synced(id: Int)
    /// Code in the host opened a comm, sent on one, or closed one (a widget's state).
    case comm(CommTraffic)
    /// The host could not leave a snapshot after execution `afterCell` (sent before the
    /// ``done(_:)`` of that execution, so its cell says so at once): a crash now would
    /// bring back an older state.
    case snapshotFailed(afterCell: Int, reason: String)

    /// A display or an update of one.
    public struct Display: Sendable, Equatable {
        /// MIME type to representation (`text/plain`, `image/png` in base64, ...).
        public var data: JSONValue
        /// Per-type metadata (image size).
        public var metadata: JSONValue
        /// The `display_id` of an updatable display.
        public var displayID: String?
        /// True for an update of an earlier display with the same id.
        public var isUpdate: Bool

        /// Creates a display event.
        public init(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool) {
            self.data = data
            self.metadata = metadata
            self.displayID = displayID
            self.isUpdate = isUpdate
        }
    }

    /// An error a cell threw: its type's name and its description.
    public struct ThrownError: Sendable, Equatable {
        public var typeName: String
        public var description: String

        /// Creates the error's record.
        public init(typeName: String, description: String) {
            self.typeName = typeName
            self.description = description
        }
    }

    /// How a run command ended.
    public enum RunOutcome: Sendable, Equatable {
        /// The entry point returned this status (0: the cell succeeded, 1: it threw).
        case returned(Int)
        /// The library or its entry point could not be loaded; the loader's message.
        case couldNotRun(String)
    }

    /// The event as a JSON object.
    public var json: JSONValue {
        switch self {
        case .display(let display):
            var members: [String: JSONValue] = [
                "event": display.isUpdate ? "update_display" : "display",
                "data": display.data, "metadata": display.metadata,
            ]
            if let id = display.displayID { members["display_id"] = .string(id) }
            return .object(members)
        case .result(let data, let metadata):
            return ["event": "result", "data": data, "metadata": metadata]
        case .clearOutput(let wait):
            return ["event": "clear_output", "wait": .bool(wait)]
        case .inputRequest(let prompt, let password):
            return ["event": "input_request", "prompt": .string(prompt), "password": .bool(password)]
        case .finished(let bound, let error):
            var members: [String: JSONValue] = ["event": "finished", "bound": .number(Double(bound))]
            if let error {
                members["ename"] = .string(error.typeName)
                members["evalue"] = .string(error.description)
            }
            return .object(members)
        case .done(.returned(let status)):
            return ["event": "done", "status": .number(Double(status))]
        case .done(.couldNotRun(let message)):
            return ["event": "done", "error": .string(message)]
        case .loadFailed(let library, let message):
            return ["event": "load_failed", "library": .string(library), "error": .string(message)]
        case .synced(let id):
            return ["event": "synced", "id": .number(Double(id))]
        case .comm(let traffic):
            return JSONValue.object(traffic.members).merging(["event": "comm"])
        case .snapshotFailed(let afterCell, let reason):
            return ["event": "snapshot_failed", "after": .number(Double(afterCell)), "reason": .string(reason)]
        }
    }

    /// Reads an event from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)``.
    public init(json: JSONValue) throws(FramingError) {
        let unknown = FramingError.unknownMessage(json.serializedText())
        switch json["event"]?.stringValue {
        case "display", "update_display":
            self = .display(Display(data: json["data"] ?? [:], metadata: json["metadata"] ?? [:],
                                    displayID: json["display_id"]?.stringValue,
                                    isUpdate: json["event"]?.stringValue == "update_display"))
        case "result":
            self = .result(data: json["data"] ?? [:], metadata: json["metadata"] ?? [:])
        case "clear_output":
            self = .clearOutput(wait: json["wait"]?.boolValue ?? false)
        case "input_request":
            self = .inputRequest(prompt: json["prompt"]?.stringValue ?? "", password: json["password"]?.boolValue ?? false)
        case "finished":
            let error = json["ename"]?.stringValue.map {
                ThrownError(typeName: $0, description: json["evalue"]?.stringValue ?? "")
            }
            self = .finished(bound: json["bound"]?.intValue ?? 0, error: error)
        case "done":
            if let message = json["error"]?.stringValue {
                self = .done(.couldNotRun(message))
            } else {
                guard let status = json["status"]?.intValue else { throw unknown }
                self = .done(.returned(status))
            }
        case "load_failed":
            self = .loadFailed(library: json["library"]?.stringValue ?? "", message: json["error"]?.stringValue ?? "")
        case "synced":
            guard let id = json["id"]?.intValue else { throw unknown }
            self = .synced(id: id)
        case "comm":
            guard let traffic = CommTraffic(json: json) else { throw unknown }
            self = .comm(traffic)
        case "snapshot_failed":
            guard let after = json["after"]?.intValue else { throw unknown }
            self = .snapshotFailed(afterCell: after, reason: json["reason"]?.stringValue ?? "")
        default:
            throw unknown
        }
    }
}
