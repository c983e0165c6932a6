import BenchbookSettings
import Foundation
import BenchbookRuntime

/// A benchmark result with everything needed to trust and reproduce it later: which model
/// file (by SHA-256), input shape, threads, runtime and library versions, the machine,
/// the date and every raw run time. Written to `results/` as JSON.
///
/// ```swift
/// import Foundation
/// let result = try Benchmark("sum", options: .quick).run { _ = (0..<1000).reduce(0, +) }
/// let record = try BenchmarkRecord(result, modelFile: "models/fashion_cnn.ptl",
///     inputShape: [1, 1, 28, 28], runtime: "Swift")
/// let url = try record.write(to: FileManager.default.temporaryDirectory)   // results/ by default
/// let before = try BenchmarkRecord(contentsOf: url)
/// try record.compared(with: before)              // ratio, interval and verdict
/// ```
public struct BenchmarkRecord: Sendable, Equatable, Codable {
    /// Version of this file layout; readers reject newer major versions.
    public var formatVersion: Int
    /// When the record was made (ISO 8601 in the file).
    public var date: Date
    /// The measurement.
    public var result: BenchmarkResult
    /// Path of the model file as given, when a model was measured.
    public var modelPath: String?
    /// Lowercase hex SHA-256 of the model file.
    public var modelSHA256: String?
    /// Shape of the input, for example [1, 3, 224, 224].
    public var inputShape: [Int]
    /// The inference runtime and its version, for example "LiteRT 1.2.0 (XNNPACK)".
    public var runtime: String
    /// Other libraries and their versions, for example ["libtorch": "1.13.1"].
    public var libraryVersions: [String: String]
    /// Free text: what was special about this run.
    public var notes: String
    /// Where it ran.
    public var machine: MachineDescription
    /// How the notebook cell that made the record was compiled: `-O` or `-Onone` (the same
    /// loop can be a hundred times slower unoptimised); nil outside a notebook and in
    /// records written before it was kept.
    public var cellOptimization: CodeOptimization?

    /// The layout version this library writes.
    public static let currentFormatVersion = 1

    /// Makes a record of a result on this machine, now.
    /// - Parameters:
    ///   - result: the measurement.
    ///   - modelFile: path of the model file to fingerprint with SHA-256, if any.
    ///   - inputShape: the input's shape.
    ///   - runtime: runtime name and version (the model library knows it; pass it in).
    ///   - libraryVersions: other versions worth recording.
    ///   - notes: free text.
    /// - Throws: ``BenchmarkError/unreadableFile(path:reason:)`` when the model file cannot be read.
    public init(
        _ result: BenchmarkResult, modelFile: String? = nil, inputShape: [Int] = [],
        runtime: String = "", libraryVersions: [String: String] = [:], notes: String = ""
    ) throws {
        self.formatVersion = Self.currentFormatVersion
        self.date = Date()
        self.result = result
        self.modelPath = modelFile
        self.modelSHA256 = try modelFile.map { try FileDigest.sha256(of: URL(fileURLWithPath: $0)) }
        self.inputShape = inputShape
        self.runtime = runtime
        self.libraryVersions = libraryVersions
        self.notes = notes
        self.machine = .current
        self.cellOptimization = CodeOptimization.ofRunningCell
    }

    /// Reads a record written by ``write(to:)``.
    /// - Parameter url: the `.json` file.
    /// - Throws: ``BenchmarkError/unreadableFile(path:reason:)`` or ``BenchmarkError/malformedRecord(path:reason:)``.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BenchmarkError.unreadableFile(path: url.path, reason: error.localizedDescription)
        }
        do {
            self = try Self.decoder.decode(BenchmarkRecord.self, from: data)
        } catch {
            throw BenchmarkError.malformedRecord(path: url.path, reason: "\(error)")
        }
        if formatVersion > Self.currentFormatVersion {
            throw BenchmarkError.malformedRecord(
                path: url.path, reason: "format version \(formatVersion) is newer than this library's \(Self.currentFormatVersion)")
        }
    }

    /// Where records go when no directory is given: `$BENCHBOOK_RESULTS_DIR` when set;
    /// otherwise `latest/` in the nearest existing `results/` directory (the current directory or
    /// up to three levels above it: a notebook in `notebooks/` writes to the project's
    /// `results/latest/`, which the project ignores), else `results/latest/` in the current
    /// directory. So an interactive run never writes over the published records in `results/`;
    /// `make run RECORDS_DIR=$PWD/results` (which sets the variable) is how those are refreshed.
    public static var defaultDirectory: URL {
        directory(settings: LibrarySettings.current,
                  current: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
    }

    /// ``defaultDirectory`` for a given environment and current directory.
    static func directory(environment: [String: String], current: URL) -> URL {
        directory(settings: (try? LibrarySettings(environment: environment)) ?? LibrarySettings(), current: current)
    }

    /// ``defaultDirectory`` for given settings and current directory.
    static func directory(settings: LibrarySettings, current: URL) -> URL {
        if let path = settings.resultsDirectory {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return resultsDirectory(from: current).appendingPathComponent("latest", isDirectory: true)
    }

    /// The nearest existing `results/` at or up to three levels above `current`, else `current/results`.
    static func resultsDirectory(from current: URL) -> URL {
        var folder = current
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("results", isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return current.appendingPathComponent("results", isDirectory: true)
    }

    /// A file name from the benchmark name, thread count and date, for example
    /// `mobilenet_v2-2t-20261129-153012.json`.
    public var suggestedFileName: String {
        "\(RecordFileName.slug(result.name))-\(result.threads)t-\(RecordFileName.stamp(date)).json"
    }

    /// Writes the record as pretty-printed JSON, creating the directory if needed.
    /// - Parameters:
    ///   - directory: where to write; ``defaultDirectory`` when nil.
    ///   - fileName: the file name; ``suggestedFileName`` when nil.
    /// - Returns: the written file.
    /// - Throws: ``BenchmarkError/unwritableFile(path:reason:)``.
    @discardableResult
    public func write(to directory: URL? = nil, fileName: String? = nil) throws -> URL {
        let folder = directory ?? Self.defaultDirectory
        let url = folder.appendingPathComponent(fileName ?? suggestedFileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.encoder.encode(self).write(to: url, options: .atomic)
        } catch {
            throw BenchmarkError.unwritableFile(path: url.path, reason: error.localizedDescription)
        }
        return url
    }

    /// Compares this record (the candidate) with a baseline record.
    /// - Parameters:
    ///   - baseline: the earlier or reference record.
    ///   - equivalenceBand: how close to 1 the whole interval must be for *equivalent* (0.05: ±5 %).
    /// - Returns: ratio of medians and p90s, and the ``Verdict`` (faster, slower, equivalent or undecided).
    /// - Throws: ``BenchmarkError/noSamples(name:)`` when either has no run times.
    public func compared(with baseline: BenchmarkRecord,
                         equivalenceBand: Double = VerdictRule.defaultEquivalenceBand) throws -> BenchmarkComparison {
        if result.samples.isEmpty { throw BenchmarkError.noSamples(name: result.name) }
        if baseline.result.samples.isEmpty { throw BenchmarkError.noSamples(name: baseline.result.name) }
        return result.compared(with: baseline.result, equivalenceBand: equivalenceBand)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

/// File-name pieces for records.
enum RecordFileName {
    /// Letters, digits, `-`, `_` and `.` kept; everything else becomes `_`.
    static func slug(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            let allowed = CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII
                || scalar == "-" || scalar == "_" || scalar == "."
            return allowed ? Character(scalar) : "_"
        }
        let text = String(kept)
        return text.isEmpty ? "benchmark" : text
    }

    /// `yyyyMMdd-HHmmss` in UTC.
    static func stamp(_ date: Date) -> String { utc(date, "yyyyMMdd-HHmmss") }

    /// `date` in UTC with a `DateFormatter` pattern, independent of the locale.
    static func utc(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
