import BenchbookSettings
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

    /// The limit a setting gives.
    /// - Parameter setting: ``KernelSettings/outputLimit``.
    public init(_ setting: KernelSettings.Size) {
        switch setting {
        case .bytes(let count): self.init(bytes: count)
        case .unlimited: self.init(bytes: nil)
        }
    }

    /// The limit written as `BENCHBOOK_OUTPUT_LIMIT` takes it: `10M`, `500k`, `0`.
    /// - Returns: nil when the text is not a size.
    public init?(parsing text: String) {
        guard let size = KernelSettings.size(parsing: text) else { return nil }
        self.init(size)
    }

    /// The limit an environment sets, or ``standard``.
    /// - Parameter environment: the variables to read.
    /// - Throws: ``SettingsError`` when the variable is set to something that is not a size.
    public static func from(environment: [String: String]) throws(SettingsError) -> OutputLimit {
        guard let text = environment[environmentVariable] else { return .standard }
        return OutputLimit(try KernelSettings.outputLimit(text))
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
