import Foundation

/// What the benchmark asks of a worker process: passed as the worker's only argument, as JSON.
public struct WorkerRequest: Sendable, Equatable, Codable {
    /// The protocol version; a worker refuses a request of another version.
    public static let currentVersion = 1
    /// The version the request was written with.
    public var version: Int
    /// What to load and run.
    public var variant: ModelVariant
    /// Warm-up and run rules (the thread count is the variant's).
    public var options: BenchmarkOptions

    /// Creates a request.
    /// - Parameters:
    ///   - variant: what to measure.
    ///   - options: how; progress lines are turned off (a worker has no notebook to show them in).
    public init(variant: ModelVariant, options: BenchmarkOptions) {
        version = Self.currentVersion
        self.variant = variant
        var options = options.with(threads: variant.threads)
        options.showsProgress = false
        self.options = options
    }

    /// The request as the worker's argument.
    public func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    /// Reads a request from the worker's argument.
    /// - Throws: ``BenchmarkError/workerProtocol(_:)`` for text that is not a request of this version.
    public init(decoding text: String) throws {
        do { self = try JSONDecoder().decode(Self.self, from: Data(text.utf8)) } catch {
            throw BenchmarkError.workerProtocol("the request is not valid JSON of this version: \(error)")
        }
        guard version == Self.currentVersion else {
            throw BenchmarkError.workerProtocol("request version \(version), this worker speaks \(Self.currentVersion)")
        }
    }
}

/// What a worker sends back on descriptor 3: its measurement, or why it has none.
public enum WorkerReport: Sendable, Equatable, Codable {
    /// The measured result.
    case measured(BenchmarkResult)
    /// The variant could not be measured (a model that does not load, a bad input), in words.
    case failed(String)

    /// The report as bytes for descriptor 3.
    public func encoded() throws -> [UInt8] {
        Array(try BenchmarkRecord.encoder.encode(self))
    }

    /// Reads a report.
    /// - Throws: ``BenchmarkError/workerProtocol(_:)`` when the bytes are not a report.
    public init(decoding bytes: [UInt8]) throws {
        do { self = try BenchmarkRecord.decoder.decode(Self.self, from: Data(bytes)) } catch {
            throw BenchmarkError.workerProtocol("the report is not valid JSON (\(bytes.count) bytes): \(error)")
        }
    }
}
