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

    /// The most JSON values one message's frames may hold together. Reading a value costs
    /// time and memory on the thread that receives the message (the shell thread serves
    /// nothing else meanwhile), so the budget bounds both: without it, a signed 50 MB message
    /// of millions of small objects held the shell thread for seconds and took gigabytes
    /// (`make test-hostile` sends such messages). A cell's text is one
    /// value however long; bulk data belongs in binary buffers, which are not read.
    public static let maximumValues = 1_000_000

    /// Decodes and verifies one received message.
    /// - Parameter frames: all frames as received from a ROUTER socket.
    /// - Throws: ``WireError`` when the frames are malformed, the signature is wrong or
    ///   was already used (``WireError/replayed``), or the header is readable but another
    ///   frame is not (``WireError/undecodable(_:)``, which carries what a reply needs:
    ///   also for frames that hold more than ``maximumValues`` values together).
    public func decode(_ frames: [Data]) throws(WireError) -> Message {
        guard let split = frames.firstIndex(of: Self.delimiter) else { throw .missingDelimiter }
        let rest = Array(frames[(split + 1)...])
        guard rest.count >= 5 else { throw .truncated(frameCount: rest.count) }
        let parts = Array(rest[1...4])
        guard signer.isValid(signature: rest[0], for: parts) else { throw .badSignature }
        if let history, !history.insert(rest[0]) { throw .replayed }
        var budget = Self.maximumValues
        guard case .success(let headerObject) = Self.object(parts[0], name: "header", budget: &budget) else {
            throw .invalidJSON("header")
        }
        let header = try MessageHeader(json: .object(headerObject))
        let identities = Array(frames[..<split])
        var objects: [[String: JSONValue]] = [headerObject]
        for (frame, name) in zip(parts.dropFirst(), Self.frameNames.dropFirst()) {
            switch Self.object(frame, name: name, budget: &budget) {
            case .success(let object):
                objects.append(object)
            case .failure(let problem):
                throw .undecodable(UndecodableMessage(identities: identities, header: header, headerJSON: .object(headerObject),
                                                      problem: problem.text))
            }
        }
        var message = Message(identities: identities, header: header,
                              parentHeaderJSON: .object(objects[1]), metadata: objects[2],
                              content: objects[3], buffers: Array(rest.dropFirst(5)))
        message.headerJSON = .object(headerObject)
        return message
    }

    /// `1,000,000` from 1000000, whatever the locale.
    static func grouped(_ number: Int) -> String {
        var digits = Array(String(number))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    /// Why a frame is not a JSON object, for the error reply.
    private struct FrameProblem: Error {
        var text: String
    }

    /// Reads a frame as a JSON object (UTF-8 checked), within what is left of the message's
    /// value budget.
    private static func object(_ frame: Data, name: String, budget: inout Int) -> Result<[String: JSONValue], FrameProblem> {
        let parsed: (value: JSONValue, count: Int)
        do {
            parsed = try JSONValue.parsing(frame, maximumValues: budget, validatingUTF8: true)
        } catch {
            if error.exceededLimit {
                return .failure(FrameProblem(text: "the message holds more than \(Self.grouped(Self.maximumValues)) JSON values "
                    + "(the \(name) frame passed the limit at byte \(error.offset)); the kernel reads at most that many per "
                    + "message: send bulk data as binary buffers"))
            }
            if error.reason.contains("UTF-8") || String(data: frame, encoding: .utf8) == nil {
                return .failure(FrameProblem(text: "the \(name) frame is not valid UTF-8; send it as UTF-8 JSON"))
            }
            return .failure(FrameProblem(text: "the \(name) frame is not valid JSON (\(error))"))
        }
        budget -= parsed.count
        guard case .object(let object) = parsed.value else {
            let kind = switch parsed.value {
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            case .object: "an object"
            }
            return .failure(FrameProblem(text: "the \(name) frame is \(kind), not a JSON object"))
        }
        return .success(object)
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
