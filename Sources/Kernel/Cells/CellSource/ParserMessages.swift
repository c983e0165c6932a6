/// A request to the cell parser process.
public enum ParserRequest: Sendable, Equatable, Codable {
    /// Parse and classify a cell (``CellAnalysis``); `marksTypes` adds `@usableFromInline`
    /// to its types and overridable class members (see `OverrideVisibility` in CellParsing).
    case analyze(source: String, bindingsAreLocal: Bool, marksTypes: Bool)
    /// Judge whether code is ready to run (``Completeness``).
    case completeness(code: String)
}

/// The cell parser's answer.
public enum ParserResponse: Sendable, Equatable, Codable {
    case analysis(CellAnalysis)
    case completeness(Completeness)
    /// The text was not parsed; the message says why (for example nesting too deep).
    case rejected(String)
}
