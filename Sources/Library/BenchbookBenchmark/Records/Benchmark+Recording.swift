import BenchbookRuntime
import Foundation

extension Benchmark {
    /// Measures a closure and writes its record to `results/` in one step (the cell-level
    /// benchmark form uses this).
    /// - Parameters:
    ///   - directory: where to write; ``BenchmarkRecord/defaultDirectory`` when nil.
    ///   - modelFile: model file to fingerprint, if any.
    ///   - inputShape: the input's shape.
    ///   - runtime: runtime name and version.
    ///   - libraryVersions: other versions worth recording.
    ///   - body: the code to time.
    /// - Returns: the record and the file it was written to; shows as the result's table.
    /// - Throws: `InterruptedError`, ``BenchmarkError``, or what `body` throws.
    public func runAndRecord(
        to directory: URL? = nil, modelFile: String? = nil, inputShape: [Int] = [], runtime: String = "",
        libraryVersions: [String: String] = [:], _ body: () throws -> Void
    ) throws -> RecordedBenchmark {
        let result = try run(body)
        let record = try BenchmarkRecord(result, modelFile: modelFile, inputShape: inputShape, runtime: runtime,
                                         libraryVersions: libraryVersions)
        return RecordedBenchmark(record: record, file: try record.write(to: directory))
    }
}

/// A benchmark record and the file it was written to.
public struct RecordedBenchmark: Sendable, NotebookDisplayable, CustomStringConvertible {
    /// The record.
    public var record: BenchmarkRecord
    /// The JSON file written.
    public var file: URL

    /// The result plus a line naming the file.
    public var mimeBundle: MimeBundle {
        let bundle = record.mimeBundle
        return MimeBundle(plainText: description)
            .adding("text/html", (bundle.data["text/html"] ?? "") + "<p>recorded in <code>\(HTML.escape(file.path))</code></p>")
    }

    /// The result and the record's path.
    public var description: String { "\(record.result.description)\nrecorded in \(file.path)" }
}
