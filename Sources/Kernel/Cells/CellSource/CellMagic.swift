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
///
/// `%optimize on|off|auto` is not a timing magic: alone in a cell, it says how the cells run
/// after it are compiled, for the whole kernel, like evcxr's `:opt`: `on` every cell with
/// `-O`, `off` every cell with `-Onone`, `auto` (the default) with `-O` a cell that has
/// code to speed up (a loop, a function or closure body, a timing magic) and the rest with
/// `-Onone`, which compiles faster. `%optimize` alone says which is in force.
public enum CellMagic: Equatable, Sendable {
    case time
    case timeit
    case benchmark(name: String)
    /// `%optimize on|off|auto`, or `%optimize` (nil: show the setting).
    case optimize(Optimization?)
    /// `%cache`: the cell cache's hits and misses this session and its size.
    case cache

    /// The magics' names, for messages (the timing magics, %optimize, then ``NameListing``'s).
    public static let names = ["%time", "%timeit", "%benchmark <name>", "%optimize on|off|auto", "%cache", "%who", "%whos"]

    /// True for the magics that time the rest of the cell.
    public var isTiming: Bool {
        switch self {
        case .optimize, .cache: false
        case .time, .timeit, .benchmark: true
        }
    }

    /// Splits a magic line off a cell.
    ///
    /// `%time expr` and `%timeit expr` (IPython's one-line form) time the expression on
    /// the magic's own line, which must then be the cell's only code; on a line of its
    /// own, a timing magic times the rest of the cell.
    /// - Parameter code: the cell's text.
    /// - Returns: nil when the cell has no magic; otherwise the magic (or why it cannot be
    ///   used) and the body with the magic's name blanked, so lines and columns still
    ///   match the cell.
    public static func parse(_ code: String) -> (magic: Result<CellMagic, MagicProblem>, body: String)? {
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
              lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("%") else { return nil }
        let line = lines[index]
        let indent = line.prefix { $0 == " " || $0 == "\t" }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let nameEnd = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? trimmed.endIndex
        let written = String(trimmed[..<nameEnd])
        let name = written.replacing(/^%%/, with: "%")
        let argument = trimmed[nameEnd...].trimmingCharacters(in: .whitespaces)
        let rest = lines[(index + 1)...].contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        switch name {
        case "%time", "%timeit":
            let magic: CellMagic = name == "%time" ? .time : .timeit
            if argument.isEmpty {
                lines[index] = ""
                guard rest else { return (.failure(.nothingToTime(written)), code) }
                return (.success(magic), lines.joined(separator: "\n"))
            }
            guard !rest else { return (.failure(.oneLineWithMore(written)), code) }
            // The expression stays at its column: the magic's name becomes spaces.
            lines[index] = String(repeating: " ", count: indent.count + written.count)
                + String(trimmed[nameEnd...])
            return (.success(magic), lines.joined(separator: "\n"))
        case "%benchmark":
            lines[index] = ""
            let title = argument.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return (.success(.benchmark(name: title.isEmpty ? "cell" : title)), lines.joined(separator: "\n"))
        case "%optimize":
            let setting: Optimization?? = switch argument.lowercased() {
            case "": .some(nil)
            default: Optimization(rawValue: argument.lowercased()).map { .some($0) }
            }
            guard let setting, !rest else { return (.failure(.optimizeUsage), code) }
            return (.success(.optimize(setting)), "")
        case "%cache":
            guard argument.isEmpty, !rest else { return (.failure(.cacheUsage), code) }
            return (.success(.cache), "")
        default:
            lines[index] = ""
            return (.failure(.unknown(name)), lines.joined(separator: "\n"))
        }
    }
}

/// Why a `%` line cannot run.
public enum MagicProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not one of Benchbook's magics.
    case unknown(String)
    /// A timing magic with nothing after it and no code below.
    case nothingToTime(String)
    /// `%time expr` with more code below it.
    case oneLineWithMore(String)
    /// `%optimize` with something other than `on` or `off`, or with code below it.
    case optimizeUsage
    /// `%who` or `%whos` with more code in the cell.
    case notAlone(String)
    /// `%cache` with an argument or more code in the cell.
    case cacheUsage

    public var description: String {
        switch self {
        case .unknown(let name):
            return "\(name) is not a Benchbook magic; the magics are \(CellMagic.names.joined(separator: ", "))."
        case .nothingToTime(let name):
            return "\(name) needs something to time: write `\(name) expression` on one line, or put \(name) on the first line of a cell with the code to time below it."
        case .optimizeUsage:
            return "Write `%optimize on` (every cell compiles with -O, as an app is built for release), `%optimize off` (-Onone, as a debug build) or `%optimize auto` (-O for cells with loops, functions or closures) alone in a cell; it applies to the cells run after it."
        case .oneLineWithMore(let name):
            return "`\(name) expression` times that one line, so it must be the cell's only code. To time the whole cell, put \(name) alone on the first line; otherwise move the other code to its own cell."
        case .cacheUsage:
            return "Write `%cache` alone in a cell: it shows the cell cache's hits and misses this session and how much each cache holds."
        case .notAlone(let name):
            return "\(name) lists what earlier cells defined, so it must be the cell's only code: move the other code to its own cell."
        }
    }
}

/// How cells are compiled (`%optimize on|off|auto`).
public enum Optimization: String, Sendable, Equatable, Codable {
    /// Every cell with `-O`.
    case on
    /// Every cell with `-Onone`.
    case off
    /// `-O` for a cell with code an optimiser can speed up, `-Onone` for the rest.
    case auto

    /// Whether a cell is compiled with `-O`.
    /// - Parameters:
    ///   - analysis: the cell.
    ///   - timed: true when a timing magic runs the cell's body.
    public func optimizes(_ analysis: CellAnalysis, timed: Bool) -> Bool {
        switch self {
        case .on: true
        case .off: false
        case .auto: timed || analysis.containsCode
        }
    }
}
