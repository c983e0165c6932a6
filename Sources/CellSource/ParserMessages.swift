/// A request to the cell parser process.
public enum ParserRequest: Sendable, Equatable, Codable {
    /// Parse and classify a cell (``CellAnalysis``).
    case analyze(source: String, bindingsAreLocal: Bool)
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
