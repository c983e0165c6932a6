import Foundation

/// Turns ZeroMQ multipart frames into ``Message`` values and back, checking signatures.
///
/// Wire layout (messaging spec): `[identities..., "<IDS|MSG>", signature, header,
/// parent_header, metadata, content, buffers...]`.
public struct WireCodec: Sendable {
    static let delimiter = Data("<IDS|MSG>".utf8)
    /// Signs outgoing and verifies incoming messages.
    public let signer: MessageSigner

    /// Creates a codec.
    /// - Parameter signer: the signer built from the connection file's key.
    public init(signer: MessageSigner) { self.signer = signer }

    /// Decodes and verifies one received message.
    /// - Parameter frames: all frames as received from a ROUTER socket.
    /// - Throws: ``WireError`` when the frames are malformed or the signature is wrong.
    public func decode(_ frames: [Data]) throws(WireError) -> Message {
        guard let split = frames.firstIndex(of: Self.delimiter) else { throw .missingDelimiter }
        let rest = Array(frames[(split + 1)...])
        guard rest.count >= 5 else { throw .truncated(frameCount: rest.count) }
        let parts = Array(rest[1...4])
        guard signer.isValid(signature: rest[0], for: parts) else { throw .badSignature }
        let names = ["header", "parent_header", "metadata", "content"]
        var objects: [[String: JSONValue]] = []
        for (frame, name) in zip(parts, names) {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: frame),
                  let object = value.objectValue else { throw .invalidJSON(name) }
            objects.append(object)
        }
        let header = try MessageHeader(json: .object(objects[0]))
        var message = Message(identities: Array(frames[..<split]), header: header,
                              parentHeaderJSON: .object(objects[1]), metadata: objects[2],
                              content: objects[3], buffers: Array(rest.dropFirst(5)))
        message.headerJSON = .object(objects[0])
        return message
    }

    /// Encodes and signs a message for sending.
    /// - Parameter message: the message; its identities route it on a ROUTER socket.
    public func encode(_ message: Message) -> [Data] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let parts: [Data] = [message.header.json, message.parentHeaderJSON,
                             .object(message.metadata), .object(message.content)]
            .map { (try? encoder.encode($0)) ?? Data("{}".utf8) }
        let signature = Data(signer.signature(for: parts).utf8)
        return message.identities + [Self.delimiter, signature] + parts + message.buffers
    }
}
