import JSONCore
import SystemSupport

/// A command or event: a JSON object on the wire, in a frame.
public protocol FramedMessage: Sendable, Equatable {
    /// The message as a JSON object.
    var json: JSONValue { get }
    /// Reads the message from its JSON object.
    /// - Throws: ``FramingError/unknownMessage(_:)``.
    init(json: JSONValue) throws(FramingError)
}

extension FramedMessage {
    /// The message as a frame.
    public var frame: [UInt8] { Framing.frame(json.serialized()) }

    /// Decodes a frame's payload.
    /// - Throws: ``FramingError`` or `JSONParseError`.
    public init(payload: [UInt8]) throws {
        try self.init(json: JSONValue(parsing: payload))
    }
}
