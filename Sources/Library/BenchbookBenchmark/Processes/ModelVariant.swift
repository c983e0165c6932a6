import Foundation

/// What a fresh worker process measures: a model file, its thread count and its input. A
/// value, not a closure, because it crosses into another process
/// (``Benchmark/acrossProcesses(_:processes:)``).
///
/// ```swift
/// let variant = ModelVariant("TFLite fp32", model: "../models/generated/efficientnet_lite0.tflite",
///                            threads: 1, input: .photo("data/photos/coffee.png"))
/// ```
public struct ModelVariant: Sendable, Equatable, Codable {
    /// The input a worker runs the model on.
    public enum Input: Sendable, Equatable, Codable {
        /// A photo, prepared by the model's own preprocessing (`Model.input(from:)`).
        case photo(String)
        /// A float32 tensor of this shape with every element `value` (for models without
        /// preprocessing metadata).
        case constant(shape: [Int], value: Float)
    }

    /// Shown in tables and used to pair results, for example "TFLite fp32".
    public var name: String
    /// The model file's absolute path.
    public var modelPath: String
    /// The runtime's thread count.
    public var threads: Int
    /// What it runs on.
    public var input: Input

    /// Creates a variant; relative paths are taken from the current directory (the notebook's).
    /// - Parameters:
    ///   - name: the variant's name.
    ///   - model: the model file.
    ///   - threads: the runtime's thread count (1 by default).
    ///   - input: the photo or constant tensor to run on.
    public init(_ name: String, model: String, threads: Int = 1, input: Input) {
        self.name = name
        self.modelPath = Self.absolute(model)
        self.threads = threads
        switch input {
        case .photo(let path): self.input = .photo(Self.absolute(path))
        case .constant: self.input = input
        }
    }

    /// The name with the thread count, as ``BenchmarkResult/label`` writes it.
    public var label: String { "\(name) · \(threads) thread\(threads == 1 ? "" : "s")" }

    /// The same variant with another thread count.
    /// - Parameter threads: the new count.
    public func with(threads: Int) -> ModelVariant {
        var copy = self
        copy.threads = threads
        return copy
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent(path).standardizedFileURL.path
    }
}
