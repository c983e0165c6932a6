import CellSource

extension CellEngine {
    /// Serves `%optimize on|off|auto` (and `%optimize` alone): sets how the cells run after
    /// it are compiled, for the whole kernel, and says so.
    /// - Parameter setting: the new setting, or nil to only show it.
    /// - Returns: nil (the cell never fails).
    func setOptimization(_ setting: Optimization?, output: CellOutput) -> CellError? {
        if let setting { optimization = setting }
        let meaning = switch optimization {
        case .on: "every cell with -O (optimised, as an app is built for release)"
        case .off: "every cell with -Onone (unoptimised, as a debug build: loops run 10 to 100 times slower)"
        case .auto: "-O (optimised, as an app is built for release) a cell with a loop, a function or a closure, and -Onone the others, which compiles faster"
        }
        let subject = setting == nil ? "Cells are compiled with" : "From now on, cells are compiled with"
        output.stream(name: "stdout", text: "\(subject) \(meaning). Benchmark records say which (`%optimize on|off|auto` changes it).\n")
        return nil
    }
}
