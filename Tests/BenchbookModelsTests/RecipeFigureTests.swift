@testable import BenchbookModels
import Foundation
import Testing

/// The figures the recipe table adds: accuracy intervals and compressed file sizes.
@Suite struct RecipeFigureTests {
    static func evaluation(correct: Int, of count: Int) -> EvaluationResult {
        EvaluationResult(modelPath: "m.tflite", classNames: ["a", "b"],
                         confusion: [[correct, 0], [count - correct, 0]], seconds: 1, batchSize: 1)
    }

    @Test func accuracyIntervalIsWilsons() {
        // 8 of 10: Wilson's 95 % interval is 0.4902–0.9433 (Newcombe 1998, table I).
        let small = Self.evaluation(correct: 8, of: 10).accuracyInterval
        #expect(small.estimate == 0.8)
        #expect(abs(small.lower - 0.4902) < 5e-5 && abs(small.upper - 0.9433) < 5e-5)
        // Near 88 % on 10,000 images: about ±0.64 points, almost the normal interval.
        let large = Self.evaluation(correct: 8800, of: 10_000).accuracyInterval
        let normal = 1.96 * (0.88 * 0.12 / 10_000).squareRoot()
        #expect(abs((large.upper - large.lower) / 2 - normal) < 1e-4)
        // All correct: the interval stays within [0, 1] and still has width.
        let perfect = Self.evaluation(correct: 50, of: 50).accuracyInterval
        #expect(perfect.upper == 1 && perfect.lower < 1 && perfect.lower > 0.9)
    }

    @Test func fileSizeRawAndCompressed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bb-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let zeros = directory.appendingPathComponent("zeros.bin")
        try Data(count: 1_000_000).write(to: zeros)
        var generator = SystemRandomNumberGenerator()
        let noise = directory.appendingPathComponent("noise.bin")
        try Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: noise)

        let a = try ModelFileSize(contentsOf: zeros.path)
        #expect(a.bytes == 1_000_000 && a.compressedBytes < 2_000)
        let b = try ModelFileSize(contentsOf: noise.path)
        #expect(b.bytes == 100_000 && b.compressedBytes > 99_000)   // random bytes do not compress
        #expect(b.description.hasPrefix("noise.bin: 0.10 MB, 0.10 MB compressed"))
        #expect(throws: ModelError.fileNotFound(path: directory.appendingPathComponent("none").path)) {
            try ModelFileSize(contentsOf: directory.appendingPathComponent("none").path)
        }
    }
}
