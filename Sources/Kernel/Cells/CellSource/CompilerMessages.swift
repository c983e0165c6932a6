/// A request to the cell compiler process (`benchbook-cell-compiler`): compile one cell.
public struct CompileRequest: Sendable, Equatable, Codable {
    /// swift-frontend's arguments, without `-frontend`.
    public var arguments: [String]

    /// Creates a request.
    /// - Parameter arguments: swift-frontend's arguments, without `-frontend`.
    public init(arguments: [String]) {
        self.arguments = arguments
    }
}

/// The cell compiler's answer.
public enum CompileResponse: Sendable, Equatable, Codable {
    /// The object file (and module file, when asked for) is written.
    case succeeded
    /// The compiler reported errors, printed as swift-frontend prints them.
    case failed(diagnostics: String)
    /// The compiler could not run here (SourceKit missing or refusing); the kernel starts
    /// swift-frontend instead.
    case unavailable(String)
}
