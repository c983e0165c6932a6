import CellSource
import JSONCore
import SystemSupport

/// A request to the cell parser process (`benchbook-cell-parser`).
public enum ParserRequest: HelperMessage {
    /// Parse and classify a cell (``CellAnalysis``); `marksTypes` adds `@usableFromInline`
    /// to its types and overridable class members (see `OverrideVisibility` in CellParsing).
    case analyze(source: String, bindingsAreLocal: Bool, marksTypes: Bool)
    /// Judge whether code is ready to run (``Completeness``).
    case completeness(code: String)

    /// The request as a JSON object.
    public var json: JSONValue {
        switch self {
        case .analyze(let source, let bindingsAreLocal, let marksTypes):
            ["request": "analyze", "source": .string(source), "bindings_are_local": .bool(bindingsAreLocal),
             "marks_types": .bool(marksTypes)]
        case .completeness(let code):
            ["request": "completeness", "code": .string(code)]
        }
    }

    /// Reads a request from its JSON object.
    /// - Parameter json: the object ``json`` wrote.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        switch try json.string("request") {
        case "analyze":
            self = .analyze(source: try json.string("source"), bindingsAreLocal: try json.bool("bindings_are_local"),
                            marksTypes: try json.bool("marks_types"))
        case "completeness":
            self = .completeness(code: try json.string("code"))
        case let other:
            throw .unknownMessage("a parser request of kind \(other)")
        }
    }
}

/// The cell parser's answer.
public enum ParserResponse: HelperMessage {
    case analysis(CellAnalysis)
    case completeness(Completeness)
    /// The text was not parsed; the message says why (for example nesting too deep).
    case rejected(String)

    /// The answer as a JSON object.
    public var json: JSONValue {
        switch self {
        case .analysis(let analysis): ["response": "analysis", "analysis": analysis.json]
        case .completeness(let completeness): ["response": "completeness", "completeness": completeness.json]
        case .rejected(let message): ["response": "rejected", "message": .string(message)]
        }
    }

    /// Reads an answer from its JSON object.
    /// - Parameter json: the object ``json`` wrote.
    /// - Throws: ``FramingError/unknownMessage(_:)`` naming what is missing.
    public init(json: JSONValue) throws(FramingError) {
        switch try json.string("response") {
        case "analysis": self = .analysis(try CellAnalysis(json: try json.member("analysis")))
        case "completeness": self = .completeness(try Completeness(json: try json.member("completeness")))
        case "rejected": self = .rejected(try json.string("message"))
        case let other: throw .unknownMessage("a parser answer of kind \(other)")
        }
    }
}
