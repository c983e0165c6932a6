import HostProtocol
import JSONCore
import SystemSupport

/// A request to, or an answer from, the cell parser or the cell compiler: a JSON object
/// written and read by JSONCore, as the cell host's commands and events are
/// (``FramedMessage``). The payload of one ``HelperService`` frame.
public protocol HelperMessage: FramedMessage {}

extension HelperMessage {
    /// The message's JSON text, the payload of a helper frame.
    public var payload: [UInt8] { json.serialized() }
}

extension JSONValue {
    /// The member `key`, which must be there.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming the member.
    func member(_ key: String) throws(FramingError) -> JSONValue {
        guard let value = self[key] else { throw .unknownMessage("a message without its `\(key)`") }
        return value
    }

    /// The string member `key`.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming the member.
    func string(_ key: String) throws(FramingError) -> String {
        guard let value = self[key]?.stringValue else { throw .unknownMessage("a message without a string `\(key)`") }
        return value
    }

    /// The string member `key`, or nil when it is absent or null.
    /// - Throws: ``FramingError/unknownMessage(_:)`` when it is there and not a string.
    func optionalString(_ key: String) throws(FramingError) -> String? {
        guard let value = self[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw .unknownMessage("a message whose `\(key)` is not a string") }
        return text
    }

    /// The integer member `key`.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming the member.
    func int(_ key: String) throws(FramingError) -> Int {
        guard let value = self[key]?.intValue else { throw .unknownMessage("a message without an integer `\(key)`") }
        return value
    }

    /// The integer member `key`, or nil when it is absent or null.
    /// - Throws: ``FramingError/unknownMessage(_:)`` when it is there and not an integer.
    func optionalInt(_ key: String) throws(FramingError) -> Int? {
        guard let value = self[key], value != .null else { return nil }
        guard let number = value.intValue else { throw .unknownMessage("a message whose `\(key)` is not an integer") }
        return number
    }

    /// The boolean member `key`.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming the member.
    func bool(_ key: String) throws(FramingError) -> Bool {
        guard let value = self[key]?.boolValue else { throw .unknownMessage("a message without a boolean `\(key)`") }
        return value
    }

    /// The array member `key`, each element read by `read`.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming the member, or what `read` throws.
    func array<Element>(_ key: String, _ read: (JSONValue) throws(FramingError) -> Element) throws(FramingError) -> [Element] {
        guard let values = self[key]?.arrayValue else { throw .unknownMessage("a message without an array `\(key)`") }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values { elements.append(try read(value)) }
        return elements
    }

    /// The array of strings `key`.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming the member.
    func strings(_ key: String) throws(FramingError) -> [String] {
        try array(key) { value throws(FramingError) in
            guard let text = value.stringValue else { throw .unknownMessage("a message whose `\(key)` holds a non-string") }
            return text
        }
    }
}

extension Array where Element == String {
    /// The strings as a JSON array.
    var json: JSONValue { .array(map(JSONValue.string)) }
}

extension Set where Element == String {
    /// The strings as a JSON array (in no particular order).
    var json: JSONValue { .array(map(JSONValue.string)) }
}
