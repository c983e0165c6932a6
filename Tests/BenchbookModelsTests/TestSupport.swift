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

    /// The first `count` Fashion-MNIST test images `[N, 28, 28]` in [0, 1] and labels.
    static func fashionTest(count: Int) throws -> (Tensor, [Int]) {
        func gunzip(_ path: String) throws -> [UInt8] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/gzip")
            process.arguments = ["-dc", path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return [UInt8](data)
        }
        let directory = "/usr/share/datasets/fashion-mnist"
        let images = try gunzip(directory + "/t10k-images-idx3-ubyte.gz")
        let labels = try gunzip(directory + "/t10k-labels-idx1-ubyte.gz")
        let pixels = images[16 ..< 16 + count * 784].map { Float($0) / 255 }
        return (try Tensor(shape: [count, 28, 28], float32: pixels), labels[8 ..< 8 + count].map(Int.init))
    }

    /// The number of threads in this process.
    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
