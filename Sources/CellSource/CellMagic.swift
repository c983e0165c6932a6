import Foundation

/// A timing magic on a cell's first line: the rest of the cell is its body, compiled
/// once into a closure that the notebook library runs (once, or many times).
///
/// - `%time` runs the body once and prints wall and CPU time; the last expression's value
///   is still the cell's result.
/// - `%timeit` runs the body many times and shows mean ± std and percentiles.
/// - `%benchmark <name>` runs the full benchmark method and writes a record to `results/`.
///
/// `%%time` and `%%timeit` are accepted too. Bindings in the body are local to it.
public enum CellMagic: Equatable, Sendable {
    case time
    case timeit
    case benchmark(name: String)

    /// The magic's names, for messages.
    public static let names = ["%time", "%timeit", "%benchmark <name>"]

    /// Splits a magic line off a cell.
    /// - Parameter code: the cell's text.
    /// - Returns: nil when the cell has no magic; otherwise the magic (or the unknown
    ///   magic's name) and the body with the magic line blanked, so line numbers still
    ///   match the cell.
    public static func parse(_ code: String) -> (magic: Result<CellMagic, UnknownMagic>, body: String)? {
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
              lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("%") else { return nil }
        let line = lines[index].trimmingCharacters(in: .whitespaces)
        lines[index] = ""
        let body = lines.joined(separator: "\n")
        var words = line.split(separator: " ", maxSplits: 1).map(String.init)
        let name = words.removeFirst().replacing(/^%%/, with: "%")
        let argument = words.first?.trimmingCharacters(in: .whitespaces) ?? ""
        switch name {
        case "%time": return (.success(.time), body)
        case "%timeit": return (.success(.timeit), body)
        case "%benchmark":
            let title = argument.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return (.success(.benchmark(name: title.isEmpty ? "cell" : title)), body)
        default: return (.failure(UnknownMagic(name: name)), body)
        }
    }
}

/// A `%` line that is not one of Benchbook's magics.
public struct UnknownMagic: Error, Equatable, Sendable {
    public var name: String
}
