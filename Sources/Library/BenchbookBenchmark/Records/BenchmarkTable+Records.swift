import Foundation

extension BenchmarkTable {
    /// Writes a sweep: one JSON file holding a record per row (with the raw run times),
    /// and a CSV of the table beside it with the same base name.
    /// - Parameters:
    ///   - directory: where to write; ``BenchmarkRecord/defaultDirectory`` when nil.
    ///   - baseName: file name without extension; the title, a thread/row count and the date when nil.
    ///   - modelFile: model file to fingerprint (the same for every row), if any.
    ///   - inputShape: the input's shape.
    ///   - runtime: runtime name and version.
    ///   - libraryVersions: other versions worth recording.
    ///   - notes: free text.
    /// - Returns: the JSON and CSV files written.
    /// - Throws: ``BenchmarkError``.
    @discardableResult
    public func write(
        to directory: URL? = nil, baseName: String? = nil, modelFile: String? = nil,
        inputShape: [Int] = [], runtime: String = "", libraryVersions: [String: String] = [:],
        notes: String = ""
    ) throws -> (json: URL, csv: URL) {
        let records = try results.map {
            try BenchmarkRecord($0, modelFile: modelFile, inputShape: inputShape, runtime: runtime,
                                libraryVersions: libraryVersions, notes: notes)
        }
        let sweep = BenchmarkSweepRecord(title: title, records: records)
        let folder = directory ?? BenchmarkRecord.defaultDirectory
        let base = baseName ?? "\(RecordFileName.slug(title))-sweep-\(RecordFileName.stamp(Date()))"
        let json = folder.appendingPathComponent(base + ".json")
        let csvURL = folder.appendingPathComponent(base + ".csv")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try BenchmarkRecord.encoder.encode(sweep).write(to: json, options: .atomic)
            try Data(csv.utf8).write(to: csvURL, options: .atomic)
        } catch {
            throw BenchmarkError.unwritableFile(path: json.path, reason: error.localizedDescription)
        }
        return (json, csvURL)
    }
}

/// A sweep as written to JSON: the title and one full record per row.
public struct BenchmarkSweepRecord: Sendable, Equatable, Codable {
    /// The sweep's title.
    public var title: String
    /// One record per row, in table order.
    public var records: [BenchmarkRecord]

    /// Creates a sweep record.
    public init(title: String, records: [BenchmarkRecord]) {
        self.title = title
        self.records = records
    }

    /// Reads a sweep written by ``BenchmarkTable/write(to:baseName:modelFile:inputShape:runtime:libraryVersions:notes:)``.
    /// - Parameter url: the `.json` file.
    /// - Throws: ``BenchmarkError``.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BenchmarkError.unreadableFile(path: url.path, reason: error.localizedDescription)
        }
        do { self = try BenchmarkRecord.decoder.decode(Self.self, from: data) } catch {
            throw BenchmarkError.malformedRecord(path: url.path, reason: "\(error)")
        }
    }

    /// The rows as a table again.
    public var table: BenchmarkTable { BenchmarkTable(title: title, results: records.map(\.result)) }
}
