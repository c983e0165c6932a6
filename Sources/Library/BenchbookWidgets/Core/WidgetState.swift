public import JSONCore

/// The encoding of widget state in the Jupyter widget protocol (version 2): JSON values in
/// `state`, binary values taken out of it and sent as buffers, each named by a path in
/// `buffer_paths`.
///
/// Binary values are top-level attributes here (an Image widget's `value`); paths into
/// nested objects, which the protocol allows, are read but not produced.
public enum WidgetState {
    /// The protocol version sent in a widget's `comm_open` metadata.
    public static let protocolVersion = "2.1.0"

    /// The `data` and buffers of a message carrying `state` and `binary` attributes.
    /// - Parameters:
    ///   - method: `update` or `echo_update`; nil for a `comm_open`'s data.
    ///   - state: attributes with JSON values.
    ///   - binary: attributes whose values are bytes (sent as buffers, in key order).
    public static func message(method: String?, state: [String: JSONValue],
                               binary: [String: [UInt8]] = [:]) -> (data: JSONValue, buffers: [[UInt8]]) {
        let keys = binary.keys.sorted()
        var members: [String: JSONValue] = [
            "state": .object(state.filter { binary[$0.key] == nil }),
            "buffer_paths": .array(keys.map { [.string($0)] }),
        ]
        if let method { members["method"] = .string(method) }
        return (.object(members), keys.map { binary[$0]! })
    }

    /// The attributes a message sets: JSON values, and the binary values its buffers
    /// carry at top-level paths.
    /// - Parameters:
    ///   - data: an `update` message's (or a `comm_open`'s) data.
    ///   - buffers: the message's buffers.
    public static func attributes(of data: JSONValue, buffers: [[UInt8]]) -> (state: [String: JSONValue], binary: [String: [UInt8]]) {
        let state = data["state"]?.objectValue ?? [:]
        var binary: [String: [UInt8]] = [:]
        for (index, path) in (data["buffer_paths"]?.arrayValue ?? []).enumerated() where index < buffers.count {
            if let items = path.arrayValue, items.count == 1, let key = items[0].stringValue {
                binary[key] = buffers[index]
            }
        }
        return (state, binary)
    }

    /// How a widget is named in the front end: `IPY_MODEL_<id>`, the reference a box's
    /// `children` or a control's `layout` holds.
    public static func reference(to modelID: String) -> JSONValue { .string("IPY_MODEL_" + modelID) }
}

extension JSONValue {
    /// The number as a `Double`, or nil for any other kind.
    var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
