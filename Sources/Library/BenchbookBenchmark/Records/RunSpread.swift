import Foundation

/// How far apart separate runs of the same figures land on one processor model: the band a
/// comparison with an earlier run must clear (``RunRelation/apart(_:)``), measured instead of
/// assumed.
///
/// `make bench-spread` measures it: the same figures, each across several fresh processes,
/// in `SPREAD_RUNS` separate runs with a pause between them, recorded in
/// `results/latency-spread.json` with the processor they ran on. From the logarithms of each
/// figure's per-run medians, the pooled standard deviation `s` (degrees of freedom: runs − 1
/// per figure, summed) gives the band `exp(t · √2 · s) − 1`: the 95 % limit of the ratio of
/// two runs' figures when nothing but the run changed.
public struct RunSpread: Sendable, Equatable, Codable {
    /// One figure measured in every run.
    public struct Figure: Sendable, Equatable, Codable {
        /// The figure's label, for example "TFLite fp32 · 1 thread".
        public var name: String
        /// Its median in each run, in seconds, in run order.
        public var medians: [Double]

        /// Creates a figure.
        public init(name: String, medians: [Double]) {
            self.name = name
            self.medians = medians
        }

        /// The largest over the smallest median, minus 1 (0.04: the runs lay within 4 %).
        public var range: Double {
            guard let low = medians.min(), let high = medians.max(), low > 0 else { return .nan }
            return high / low - 1
        }
    }

    /// What a verdict needs from a spread: the band, how many runs it rests on, the processor.
    public struct Band: Sendable, Equatable, Codable {
        /// The band's relative half-width (0.062: ratios within 1/1.062 to 1.062).
        public var band: Double
        /// Runs the band was measured from.
        public var runs: Int
        /// The processor model it was measured on.
        public var cpuModel: String

        /// Creates a band.
        public init(band: Double, runs: Int, cpuModel: String) {
            self.band = band
            self.runs = runs
            self.cpuModel = cpuModel
        }
    }

    /// The machine the runs were on (its processor model decides where the band applies).
    public var machine: MachineDescription
    /// When the first run started.
    public var date: Date
    /// How many separate runs.
    public var runs: Int
    /// The pause between runs, in seconds.
    public var pauseSeconds: Double
    /// Fresh processes per figure in each run.
    public var processes: Int
    /// The figures, each with its median per run.
    public var figures: [Figure]
    /// The command that made the record.
    public var command: String
    /// The 1-minute load average before each run (`/proc/loadavg`).
    public var loadAverages: [Double]
    /// The band computed from ``figures`` (see the type's description).
    public var band: Double

    /// Creates a record and computes its band.
    /// - Parameters:
    ///   - machine: where the runs were made.
    ///   - date: when the first run started.
    ///   - pauseSeconds: the pause between runs.
    ///   - processes: fresh processes per figure and run.
    ///   - figures: the figures with one median per run (all the same count, at least 2).
    ///   - command: what made it.
    ///   - loadAverages: the load before each run.
    public init(machine: MachineDescription, date: Date, pauseSeconds: Double, processes: Int, figures: [Figure],
                command: String, loadAverages: [Double]) {
        self.machine = machine
        self.date = date
        self.runs = figures.map(\.medians.count).max() ?? 0
        self.pauseSeconds = pauseSeconds
        self.processes = processes
        self.figures = figures
        self.command = command
        self.loadAverages = loadAverages
        self.band = Self.band(of: figures)
    }

    /// The band from the figures' per-run medians: `exp(t · √2 · s) − 1`, NaN with fewer than
    /// 2 runs of any figure.
    static func band(of figures: [Figure]) -> Double {
        var squares = 0.0, degrees = 0
        for figure in figures where figure.medians.count >= 2 && figure.medians.allSatisfy({ $0 > 0 }) {
            let logs = figure.medians.map { log($0) }
            let mean = logs.reduce(0, +) / Double(logs.count)
            squares += logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            degrees += logs.count - 1
        }
        guard degrees > 0 else { return .nan }
        let s = (squares / Double(degrees)).squareRoot()
        return exp(StudentT.quantile975(degrees: Double(degrees)) * 2.0.squareRoot() * s) - 1
    }

    /// The band, runs and processor, for a verdict.
    public var summary: Band { Band(band: band, runs: runs, cpuModel: machine.cpuModel) }

    /// The published file's name in `results/`.
    public static let fileName = "latency-spread.json"

    /// Every spread in a spread file (one per processor model measured).
    /// - Parameter url: the file; a missing file holds none.
    /// - Throws: ``BenchmarkError/malformedRecord(path:reason:)`` for a file that is not one.
    public static func load(from url: URL) throws -> [RunSpread] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        do { return try BenchmarkRecord.decoder.decode([RunSpread].self, from: data) } catch {
            throw BenchmarkError.malformedRecord(path: url.path, reason: "\(error)")
        }
    }

    /// The spreads published in the project's `results/` (found from the current directory as
    /// records are); none when there is no file or it cannot be read.
    public static func published() -> [RunSpread] {
        let results = BenchmarkRecord.resultsDirectory(
            from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        return (try? load(from: results.appendingPathComponent(fileName))) ?? []
    }

    /// Adds this spread to a spread file, replacing an earlier one of the same processor model.
    /// - Parameter url: the file (created when missing).
    /// - Throws: ``BenchmarkError`` when it cannot be read or written.
    public func merge(into url: URL) throws {
        var all = try Self.load(from: url).filter { $0.machine.cpuModel != machine.cpuModel }
        all.append(self)
        do { try BenchmarkRecord.encoder.encode(all).write(to: url, options: .atomic) } catch {
            throw BenchmarkError.unwritableFile(path: url.path, reason: "\(error)")
        }
    }
}
