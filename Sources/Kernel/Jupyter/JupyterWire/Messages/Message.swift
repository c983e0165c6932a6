@_exported import JSONCore
import Foundation

/// The header of a Jupyter message.
public struct MessageHeader: Sendable, Equatable {
    public var messageID: String
    public var session: String
    public var username: String
    public var date: String
    public var messageType: String
    public var version: String

    /// Creates a header for a new message.
    /// - Parameters:
    ///   - messageType: for example `execute_reply`.
    ///   - session: the kernel's session id.
    public init(messageType: String, session: String, username: String = "kernel") {
        self.messageID = UUID().uuidString.lowercased()
        self.session = session
        self.username = username
        self.date = MessageHeader.timestamp()
        self.messageType = messageType
        self.version = protocolVersion
    }

    init(json: JSONValue) throws(WireError) {
        func field(_ name: String) throws(WireError) -> String {
            guard let value = json[name]?.stringValue else { throw .invalidHeader(name) }
            return value
        }
        messageID = try field("msg_id")
        messageType = try field("msg_type")
        session = json["session"]?.stringValue ?? ""
        username = json["username"]?.stringValue ?? ""
        date = json["date"]?.stringValue ?? ""
        version = json["version"]?.stringValue ?? protocolVersion
    }

    var json: JSONValue {
        ["msg_id": .string(messageID), "session": .string(session), "username": .string(username),
         "date": .string(date), "msg_type": .string(messageType), "version": .string(version)]
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}

/// The version of the Jupyter messaging protocol this kernel speaks.
public let protocolVersion = "5.5"

/// One Jupyter message: routing identities, header, parent header, metadata, content
/// and optional binary buffers.
public struct Message: Sendable {
    /// ROUTER identities of the sender, echoed on replies.
    public var identities: [Data]
    public var header: MessageHeader
    /// The header exactly as received (or as built), used as the parent header of
    /// replies so that every field the client sent comes back unchanged.
    public var headerJSON: JSONValue
    /// The header of the request this message answers, or nil.
    public var parentHeader: MessageHeader?
    /// The raw parent header, echoed unchanged (clients compare it).
    public var parentHeaderJSON: JSONValue
    public var metadata: [String: JSONValue]
    public var content: [String: JSONValue]
    public var buffers: [Data]

    /// The message type from the header.
    public var type: String { header.messageType }

    /// Creates a message.
    public init(identities: [Data] = [], header: MessageHeader, parentHeaderJSON: JSONValue = [:],
                metadata: [String: JSONValue] = [:], content: [String: JSONValue], buffers: [Data] = []) {
        self.identities = identities
        self.header = header
        self.headerJSON = header.json
        self.parentHeaderJSON = parentHeaderJSON
        self.parentHeader = try? MessageHeader(json: parentHeaderJSON)
        self.metadata = metadata
        self.content = content
        self.buffers = buffers
    }
}
