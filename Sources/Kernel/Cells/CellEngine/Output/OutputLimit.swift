import Foundation

/// How much of a cell's standard output and error the notebook is sent; the rest goes to a
/// file the user can open.
///
/// A front end slows down long before a kernel does: JupyterLab keeps every output in the
/// page, and a few megabytes of text make a notebook sluggish. Past the limit, a cell's
/// streams are written whole to `benchbook-output/In7-stdout.txt` (and `-stderr.txt`) in
/// the kernel's working directory, the notebook's folder, and the notebook says so.
///
/// Set with `BENCHBOOK_OUTPUT_LIMIT` in the kernel's environment (the kernelspec's `env`):
/// a number of bytes with an optional `k`, `M` or `G` suffix (powers of 1,000), or `0` for
/// no limit.
public struct OutputLimit: Sendable, Equatable, CustomStringConvertible {
    /// The default: 10 MB a cell, both streams together.
    public static let standard = OutputLimit(bytes: 10_000_000)
    /// No limit: everything is sent to the notebook.
    public static let none = OutputLimit(bytes: nil)
    /// The environment variable that sets the limit.
    public static let environmentVariable = "BENCHBOOK_OUTPUT_LIMIT"

    /// Bytes of text a cell may send, or nil for no limit.
    public var bytes: Int?

    /// Creates a limit of `bytes` (nil: none).
    public init(bytes: Int?) { self.bytes = bytes }

    /// The limit written as `BENCHBOOK_OUTPUT_LIMIT` takes it: `10M`, `500k`, `0`.
    /// - Returns: nil when the text is not a size.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let multipliers: [Character: Int] = ["k": 1_000, "K": 1_000, "M": 1_000_000, "G": 1_000_000_000]
        var digits = Substring(trimmed)
        var multiplier = 1
        if let last = digits.last, let found = multipliers[last] {
            multiplier = found
            digits = digits.dropLast()
        } else if digits.hasSuffix("B") || digits.hasSuffix("b") {
            return nil
        }
        guard let value = Int(digits), value >= 0 else { return nil }
        let (total, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        self.init(bytes: total == 0 ? nil : total)
    }

    /// The limit the kernel's environment sets, or ``standard``.
    /// - Parameter environment: the variables to read.
    /// - Throws: ``OutputLimitError`` when the variable is set to something that is not a size.
    public static func from(environment: [String: String]) throws(OutputLimitError) -> OutputLimit {
        guard let text = environment[environmentVariable] else { return .standard }
        guard let limit = OutputLimit(parsing: text) else { throw OutputLimitError(text: text) }
        return limit
    }

    public var description: String { bytes.map(Self.size) ?? "no limit" }

    /// A byte count as people read it: `980 bytes`, `12.3 kB`, `10.0 MB`, `1.2 GB`.
    public static func size(_ count: Int) -> String {
        switch count {
        case ..<1_000: return "\(count) bytes"
        case ..<1_000_000: return String(format: "%.1f kB", Double(count) / 1e3)
        case ..<1_000_000_000: return String(format: "%.1f MB", Double(count) / 1e6)
        default: return String(format: "%.1f GB", Double(count) / 1e9)
        }
    }
}

/// `BENCHBOOK_OUTPUT_LIMIT` is set to something that is not a size.
public struct OutputLimitError: Error, CustomStringConvertible {
    /// The variable's text.
    public var text: String
    public var description: String {
        "\(OutputLimit.environmentVariable)=\(text) is not a size: write a number of bytes, optionally with k, M or G (10M is 10,000,000), or 0 for no limit"
    }
}
