import Foundation

/// Turns ZeroMQ multipart frames into ``Message`` values and back, checking signatures
/// and refusing replays.
///
/// Wire layout (messaging spec): `[identities..., "<IDS|MSG>", signature, header,
/// parent_header, metadata, content, buffers...]`.
///
/// Thread rules: a codec may be used from several threads at once; the replay history
/// it shares between them holds a lock.
public struct WireCodec: Sendable {
    static let delimiter = Data("<IDS|MSG>".utf8)
    static let frameNames = ["header", "parent_header", "metadata", "content"]
    /// Signs outgoing and verifies incoming messages.
    public let signer: MessageSigner
    /// The signatures already accepted; nil when signing is off (nothing to compare).
    public let history: SignatureHistory?

    /// Creates a codec.
    /// - Parameters:
    ///   - signer: the signer built from the connection file's key.
    ///   - historyCapacity: how many accepted signatures are remembered to refuse replays.
    public init(signer: MessageSigner, historyCapacity: Int = SignatureHistory.defaultCapacity) {
        self.signer = signer
        self.history = signer.isSigning ? SignatureHistory(capacity: historyCapacity) : nil
    }

    /// Decodes and verifies one received message.
    /// - Parameter frames: all frames as received from a ROUTER socket.
    /// - Throws: ``WireError`` when the frames are malformed, the signature is wrong or
    ///   was already used (``WireError/replayed``), or the header is readable but another
    ///   frame is not (``WireError/undecodable(_:)``, which carries what a reply needs).
    public func decode(_ frames: [Data]) throws(WireError) -> Message {
        guard let split = frames.firstIndex(of: Self.delimiter) else { throw .missingDelimiter }
        let rest = Array(frames[(split + 1)...])
        guard rest.count >= 5 else { throw .truncated(frameCount: rest.count) }
        let parts = Array(rest[1...4])
        guard signer.isValid(signature: rest[0], for: parts) else { throw .badSignature }
        if let history, !history.insert(rest[0]) { throw .replayed }
        guard let headerObject = Self.object(parts[0]) else { throw .invalidJSON("header") }
        let header = try MessageHeader(json: .object(headerObject))
        let identities = Array(frames[..<split])
        var objects: [[String: JSONValue]] = [headerObject]
        for (frame, name) in zip(parts.dropFirst(), Self.frameNames.dropFirst()) {
            guard let object = Self.object(frame) else {
                throw .undecodable(UndecodableMessage(identities: identities, header: header, headerJSON: .object(headerObject),
                                                      problem: Self.problem(frame, name: name)))
            }
            objects.append(object)
        }
        var message = Message(identities: identities, header: header,
                              parentHeaderJSON: .object(objects[1]), metadata: objects[2],
                              content: objects[3], buffers: Array(rest.dropFirst(5)))
        message.headerJSON = .object(headerObject)
        return message
    }

    private static func object(_ frame: Data) -> [String: JSONValue]? {
        (try? JSONDecoder().decode(JSONValue.self, from: frame))?.objectValue
    }

    /// Why a frame is not a JSON object, for the error reply.
    private static func problem(_ frame: Data, name: String) -> String {
        if String(data: frame, encoding: .utf8) == nil { return "the \(name) frame is not valid UTF-8; send it as UTF-8 JSON" }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: frame) else {
            return "the \(name) frame is not valid JSON"
        }
        let kind = switch value {
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .object: "an object"
        }
        return "the \(name) frame is \(kind), not a JSON object"
    }

    /// Encodes and signs a message for sending.
    /// - Parameter message: the message; its identities route it on a ROUTER socket.
    public func encode(_ message: Message) -> [Data] {
        // JSONCore's writer, not Foundation's JSONEncoder: a cell's output travels as one
        // large string, and the Codable path costs several times as much per byte.
        let parts: [Data] = [message.header.json, message.parentHeaderJSON,
                             .object(message.metadata), .object(message.content)]
            .map { Data($0.serialized(sortingKeys: true)) }
        let signature = Data(signer.signature(for: parts).utf8)
        return message.identities + [Self.delimiter, signature] + parts + message.buffers
    }
}
