/// One completion, as a Jupyter front end shows it.
public struct CompletionMatch: Sendable, Equatable {
    /// The text that replaces the cell's text between the reply's start and end.
    public var text: String
    /// Its kind for `_jupyter_types_experimental`: `function`, `method`, `variable`,
    /// `property`, `class`, `struct`, `keyword`, ...
    public var type: String
    /// A one-line signature, for example `reshaped(to: [Int]) throws -> Tensor`.
    public var signature: String
}

/// Where completions came from.
public enum CompletionSource: String, Sendable {
    /// SourceKit-LSP answered.
    case languageServer
    /// SourceKit-LSP was unavailable or slow: earlier cells' names, the cell's own names,
    /// the library's public API and Swift keywords.
    case notebookNames
}

/// The answer to a completion request.
public struct CompletionList: Sendable, Equatable {
    /// The completions, best first.
    public var matches: [CompletionMatch]
    /// Code-point offset in the cell where the replaced text starts.
    public var cursorStart: Int
    /// Code-point offset where it ends.
    public var cursorEnd: Int
    /// Who answered.
    public var source: CompletionSource
}

/// What inspection found about the name at the cursor.
public struct Inspection: Sendable, Equatable {
    /// The signature and documentation as plain text.
    public var plainText: String
    /// The same as Markdown (the signature in a Swift code block).
    public var markdown: String

    /// This inspection, then `other`, one paragraph apart.
    func followed(by other: Inspection) -> Inspection {
        Inspection(plainText: plainText + "\n\n" + other.plainText, markdown: markdown + "\n\n" + other.markdown)
    }
}
