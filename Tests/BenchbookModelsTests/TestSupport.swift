import BenchbookImage
import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// Paths and helpers shared by the model tests.
enum TestSupport {
    /// The checkout root (this file is Tests/BenchbookModelsTests/TestSupport.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The committed course models.
    static let modelsDirectory = ProcessInfo.processInfo.environment["BENCHBOOK_MODELS_DIR"] ?? root + "/notebooks/models"
    /// The large set-up models (MobileNetV2, untrained weights), present after `make models`.
    static let generatedDirectory = root + "/models/generated"

    /// A committed course model's path; fails the test when it is missing.
    static func courseModel(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = modelsDirectory + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("\(path) is missing; run `make models`", file: file, line: line)
            throw XCTSkip("missing model")
        }
        return path
    }

    /// A tensor from a reference JSON object {"shape", "dtype", "values"}.
    static func tensor(_ object: [String: Any]) throws -> Tensor {
        let shape = object["shape"] as! [Int]
        let values = object["values"] as! [NSNumber]
        switch object["dtype"] as! String {
        case "int8": return try Tensor(shape: shape, storage: .int8(values.map { $0.int8Value }))
        case "uint8": return try Tensor(shape: shape, storage: .uint8(values.map { $0.uint8Value }))
        default: return try Tensor(shape: shape, float32: values.map { $0.floatValue })
        }
    }

    /// The first `count` Fashion-MNIST test images `[N, 1, 28, 28]` in [0, 1] and labels,
    /// read with the library's own reader.
    static func fashionTest(count: Int) throws -> (Tensor, [Int]) {
        let testSet = try FashionMNIST(split: .test)
        return (try testSet.tensor(range: 0..<count), testSet.labels.prefix(count).map(Int.init))
    }

    /// The number of threads in this process.
    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
