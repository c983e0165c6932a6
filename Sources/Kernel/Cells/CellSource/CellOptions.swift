import Foundation

/// Cell option lines of publishing tools at the top of a cell: `#| key: value` (Quarto's
/// and Jupyter Book's form, whatever the language) and `//| key: value` (Quarto's form for
/// a language whose comments start with `//`).
///
/// Quarto, MyST-NB and mystmd read them from the notebook file and send the cell to the
/// kernel as it is, so the kernel only has to accept them. `#|` is not Swift, so every
/// option line is blanked before a cell is analysed, compiled or completed: each of its
/// characters becomes a space, so line and column numbers in messages, and cursor offsets,
/// stay those of the cell the user wrote. Only lines before the first other non-blank line
/// count; `#|` further down is Swift's business (an error).
public enum CellOptions {
    /// The prefixes that start an option line (after any indentation).
    public static let prefixes = ["#|", "//|"]

    /// The option lines at the top of a cell, in order, each without its prefix and
    /// surrounding spaces (`label: fig-input`).
    /// - Parameter code: the cell's text.
    public static func lines(in code: String) -> [String] {
        let lines = lines(of: code)
        return optionLineIndices(in: lines).map { index in
            let text = lines[index].trimmingLeadingSpaces
            let prefix = prefixes.first { text.hasPrefix($0) } ?? ""
            return text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The cell with its option lines blanked: the same number of lines, and of Unicode
    /// scalars on every line, so positions in it are positions in `code`.
    /// - Parameter code: the cell's text.
    /// - Returns: `code` itself when it has no option lines.
    public static func blanked(_ code: String) -> String {
        guard prefixes.contains(where: code.contains) else { return code }
        var lines = lines(of: code)
        let options = optionLineIndices(in: lines)
        guard !options.isEmpty else { return code }
        for index in options {
            lines[index] = Substring(String(repeating: " ", count: lines[index].unicodeScalars.count))
        }
        return lines.joined(separator: "\n")
    }

    private static func lines(of code: String) -> [Substring] {
        code.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The indices of the leading option lines (blank lines between them are allowed).
    private static func optionLineIndices(in lines: [Substring]) -> [Int] {
        var found: [Int] = []
        for (index, line) in lines.enumerated() {
            let text = line.trimmingLeadingSpaces
            if prefixes.contains(where: text.hasPrefix) {
                found.append(index)
            } else if !text.allSatisfy(\.isWhitespace) {
                break
            }
        }
        return found
    }
}

extension StringProtocol {
    fileprivate var trimmingLeadingSpaces: SubSequence { drop { $0 == " " || $0 == "\t" } }
}
