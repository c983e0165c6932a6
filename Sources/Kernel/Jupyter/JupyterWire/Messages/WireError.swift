/// Why a multipart message could not be turned into a ``Message``.
public enum WireError: Error, CustomStringConvertible, Equatable {
    /// The frames have no `<IDS|MSG>` delimiter.
    case missingDelimiter
    /// Fewer than the five frames after the delimiter (signature, header, parent, metadata, content).
    case truncated(frameCount: Int)
    /// The HMAC signature is missing or does not match the key.
    case badSignature
    /// A frame is not valid JSON, or not a JSON object; the text says which frame.
    case invalidJSON(String)
    /// A required header field is missing or has the wrong type.
    case invalidHeader(String)
    /// The connection file asks for a signature scheme other than hmac-sha256.
    case unsupportedSignatureScheme(String)
    /// A correctly signed message whose signature was already accepted once: a replay.
    case replayed
    /// A correctly signed message whose header is readable but whose parent header,
    /// metadata or content is not (invalid UTF-8, not JSON, not an object). It carries
    /// what is needed to answer the sender.
    case undecodable(UndecodableMessage)

    public var description: String {
        switch self {
        case .missingDelimiter: "message has no <IDS|MSG> delimiter frame; dropped"
        case .truncated(let count): "message has \(count) frames after the delimiter, expected at least 5; dropped"
        case .badSignature: "message signature is missing or wrong (is the client using the connection file's key?); dropped"
        case .invalidJSON(let frame): "the \(frame) frame is not a JSON object; dropped"
        case .invalidHeader(let field): "the header field '\(field)' is missing or not a string; dropped"
        case .unsupportedSignatureScheme(let scheme): "signature scheme '\(scheme)' is not supported; use hmac-sha256"
        case .replayed: "message signature was already used once (a replayed message); dropped"
        case .undecodable(let message): "\(message.header.messageType) \(message.header.messageID): \(message.problem)"
        }
    }
}
