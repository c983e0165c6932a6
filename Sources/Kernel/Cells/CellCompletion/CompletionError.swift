import SystemSupport

/// Why SourceKit-LSP could not answer; completion then falls back to the notebook's
/// own names.
public enum CompletionError: Error, Sendable, CustomStringConvertible {
    /// `sourcekit-lsp` could not be started; the text says why.
    case serverUnavailable(String)
    /// The server did not answer in time.
    case timedOut(method: String, seconds: Double)
    /// The server has not yet answered a request that timed out, so a new one would wait
    /// behind it; answered from the notebook's names at once.
    case busy
    /// The server exited or closed its output.
    case serverExited
    /// The server answered with a JSON-RPC error.
    case serverError(String)
    /// The server failed and is not started again before its restart delay has passed.
    case restarting(HelperUnavailable)
    /// The server is starting (on a thread of its own, since starting it takes longer than
    /// a front end waits for an answer); answered from the notebook's names meanwhile.
    case starting

    /// What went wrong and what to do next.
    public var description: String {
        switch self {
        case .serverUnavailable(let why):
            "SourceKit-LSP could not be started (\(why)); install the Swift toolchain with sourcekit-lsp or set BENCHBOOK_SOURCEKIT_LSP to its path."
        case .timedOut(let method, let seconds):
            "SourceKit-LSP did not answer \(method) within \(seconds) s; the next request tries again."
        case .busy:
            "SourceKit-LSP is still working on an earlier request; the answer falls back to the notebook's names."
        case .serverExited:
            "SourceKit-LSP exited; it is started again on a later request."
        case .serverError(let message):
            "SourceKit-LSP reported an error (\(message)); the answer falls back to the notebook's names."
        case .restarting(let unavailable):
            "\(unavailable); the answer falls back to the notebook's names."
        case .starting:
            "SourceKit-LSP is starting; the answer falls back to the notebook's names and the library's API."
        }
    }

    /// What went wrong, in a few words (the reason ``restarting(_:)`` repeats).
    var reason: String {
        switch self {
        case .serverUnavailable(let why): why
        case .timedOut(let method, let seconds): "it did not answer \(method) within \(seconds) s"
        case .busy: "it kept a request unanswered"
        case .serverExited: "it exited"
        case .serverError(let message): "it reported an error: \(message)"
        case .restarting(let unavailable): unavailable.reason
        case .starting: "it is starting"
        }
    }
}
