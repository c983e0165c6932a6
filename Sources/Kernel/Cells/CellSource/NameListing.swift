/// `%who` and `%whos`: what earlier cells defined (the newest definition of each name),
/// as in IPython.
///
/// - `%who` writes one line per name: a value's name, type and one-line value
///   (`threshold: Int = 48`), a declaration's kind and name (`func explorerRecipe`).
/// - `%whos` writes a table with the cell that defined each name and more detail (element
///   counts, the type a value of protocol type holds).
///
/// Arguments keep only the names of those types or kinds: `%who Int Tensor`, `%whos func`.
/// The magic is the cell's only code.
public struct NameListing: Equatable, Sendable {
    /// True for `%whos`.
    public var detailed: Bool
    /// Type names (`Int`, `[Float]`) or kinds (`func`, `struct`, `var`) to keep; empty: all.
    public var filter: [String]

    /// Creates a listing request.
    public init(detailed: Bool, filter: [String] = []) {
        self.detailed = detailed
        self.filter = filter
    }

    /// The listing a cell asks for.
    /// - Parameter code: the cell's text.
    /// - Returns: nil when the cell's first line is not `%who` or `%whos`; a failure when
    ///   the cell has more code.
    public static func parse(_ code: String) -> Result<NameListing, MagicProblem>? {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        let words = lines[first].split(whereSeparator: \.isWhitespace)
        guard let name = words.first, name == "%who" || name == "%whos" else { return nil }
        if lines[(first + 1)...].contains(where: { !$0.allSatisfy(\.isWhitespace) }) {
            return .failure(.notAlone(String(name)))
        }
        let filter = words.dropFirst().map(String.init)   // separated by spaces, as in IPython
        return .success(NameListing(detailed: name == "%whos", filter: filter))
    }
}
