/// How the code of a notebook cell was compiled. Benchmark records write down the level of
/// the cell that ran them, since the same loop can be a hundred times slower unoptimised.
public enum CodeOptimization: String, Sendable, Codable, CustomStringConvertible {
    /// `-O`: as an app is built for release.
    case optimized = "-O"
    /// `-Onone`: as a debug build.
    case unoptimized = "-Onone"

    /// The level of the cell running now (or that ran last); nil outside a notebook.
    nonisolated(unsafe) public static var ofRunningCell: CodeOptimization?

    public var description: String { rawValue }
}
