import JSONCore
import SystemSupport

/// A request to the cell compiler process (`benchbook-cell-compiler`): compile one cell.
public struct CompileRequest: HelperMessage {
    /// swift-frontend's arguments, without `-frontend`.
    public var arguments: [String]

    /// Creates a request.
    /// - Parameter arguments: swift-frontend's arguments, without `-frontend`.
    public init(arguments: [String]) {
        self.arguments = arguments
    }

    /// The request as a JSON object.
    public var json: JSONValue { ["arguments": .array(arguments.map(JSONValue.string))] }

    /// Reads a request from its JSON object.
    /// - Parameter json: the object ``json`` wrote.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        arguments = try json.strings("arguments")
    }
}

/// The cell compiler's answer.
public enum CompileResponse: HelperMessage {
    /// The object file (and module file, when asked for) is written.
    case succeeded
    /// The compiler reported errors, printed as swift-frontend prints them.
    case failed(diagnostics: String)
    /// The compiler could not run here (SourceKit missing or refusing); the kernel starts
    /// swift-frontend instead.
    case unavailable(String)

    /// The answer as a JSON object.
    public var json: JSONValue {
        switch self {
        case .succeeded: ["response": "succeeded"]
        case .failed(let diagnostics): ["response": "failed", "diagnostics": .string(diagnostics)]
        case .unavailable(let reason): ["response": "unavailable", "reason": .string(reason)]
        }
    }

    /// Reads an answer from its JSON object.
    /// - Parameter json: the object ``json`` wrote.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        switch try json.string("response") {
        case "succeeded": self = .succeeded
        case "failed": self = .failed(diagnostics: try json.string("diagnostics"))
        case "unavailable": self = .unavailable(try json.string("reason"))
        case let other: throw .unknownMessage("a compiler answer of kind \(other)")
        }
    }
}
