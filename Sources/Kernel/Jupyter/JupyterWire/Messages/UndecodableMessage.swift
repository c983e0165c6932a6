import Foundation

/// A signed message whose header could be read but whose other frames could not.
///
/// Its sender waits for a reply that would never come if the message were only dropped,
/// so the kernel answers a request with an error reply built from ``replyParent``.
public struct UndecodableMessage: Sendable, Equatable {
    /// ROUTER identities of the sender.
    public var identities: [Data]
    /// The message's header (type, id, session).
    public var header: MessageHeader
    /// The header as received, echoed as the parent header of the reply.
    public var headerJSON: JSONValue
    /// What could not be read, for example "the content frame is not a JSON object".
    public var problem: String

    /// A message with this header and identities and no content, to reply to.
    public var replyParent: Message {
        var message = Message(identities: identities, header: header, content: [:])
        message.headerJSON = headerJSON
        return message
    }

    /// The reply type a request expects (`execute_request` → `execute_reply`), or nil
    /// when the message is not a request.
    public var replyType: String? {
        let type = header.messageType
        guard type.hasSuffix("_request") else { return nil }
        return String(type.dropLast("_request".count)) + "_reply"
    }
}
