import JSONCore

/// One Jupyter comm message (`comm_open`, `comm_msg` or `comm_close`), in either
/// direction between the front end and code in the cell host.
///
/// The kernel turns the front end's messages into ``HostCommand/comm(_:dispatch:requestID:)``
/// and the host's into ``HostEvent/comm(_:)``; the kernel publishes the latter on iopub.
/// Binary buffers travel as base64 text inside the frame's JSON.
public struct CommTraffic: Sendable, Equatable {
    /// Which of the three comm messages this is.
    public enum Kind: String, Sendable {
        case open = "comm_open"
        case message = "comm_msg"
        case close = "comm_close"
    }

    /// The message type.
    public var kind: Kind
    /// The comm's id (a UUID chosen by whoever opened it).
    public var commID: String
    /// The target the comm is opened to (only for ``Kind/open``).
    public var targetName: String?
    /// The message's `data`.
    public var data: JSONValue
    /// The message's metadata (the widget protocol version on an open).
    public var metadata: JSONValue
    /// Binary buffers that travel after the message's JSON parts.
    public var buffers: [[UInt8]]

    /// Creates a comm message.
    public init(_ kind: Kind, commID: String, targetName: String? = nil, data: JSONValue = [:],
                metadata: JSONValue = [:], buffers: [[UInt8]] = []) {
        self.kind = kind
        self.commID = commID
        self.targetName = targetName
        self.data = data
        self.metadata = metadata
        self.buffers = buffers
    }

    /// The message as JSON members (without the command or event name).
    var members: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "comm_id": .string(commID), "data": data, "metadata": metadata,
        ]
        if let targetName { members["target_name"] = .string(targetName) }
        if !buffers.isEmpty { members["buffers"] = .array(buffers.map { .string(Base64.encode($0)) }) }
        return members
    }

    /// Reads the members written by ``members``.
    init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
              let commID = json["comm_id"]?.stringValue else { return nil }
        var buffers: [[UInt8]] = []
        for item in json["buffers"]?.arrayValue ?? [] {
            guard let text = item.stringValue, let bytes = Base64.decode(text) else { return nil }
            buffers.append(bytes)
        }
        self.init(kind, commID: commID, targetName: json["target_name"]?.stringValue, data: json["data"] ?? [:],
                  metadata: json["metadata"] ?? [:], buffers: buffers)
    }
}
