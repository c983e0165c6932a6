import BenchbookImage
import BenchbookRuntime
import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// Descriptions, evaluation, prediction and thread settings on the course models.
final class BehaviourTests: XCTestCase {
    func testDescriptionsNameInputsAndOutputs() throws {
        let script = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.pt"))
        XCTAssertEqual(script.inputs, [TensorDescription(name: "image", shape: [-1, 1, 28, 28], elementType: .float32, layout: .nchw)])
        XCTAssertEqual(script.outputs.first?.name, "logits")
        XCTAssertEqual(script.labels?.count, 10)
        let int8 = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn_int8.tflite"))
        XCTAssertEqual(int8.inputs.first?.name, "image")
        XCTAssertEqual(int8.inputs.first?.shape, [-1, 28, 28, 1])
        XCTAssertEqual(int8.inputs.first?.elementType, .int8)
        XCTAssertNotNil(int8.inputs.first?.quantization)
        XCTAssertEqual(int8.outputs.first?.name, "logits")
        XCTAssertEqual(int8.outputs.first?.elementType, .int8)
        let bundle = int8.mimeBundle
        XCTAssertTrue(bundle.data["text/html"]!.contains("<table>"))
        XCTAssertTrue(bundle.data["text/plain"]!.contains("zero point"))
    }

    func testEvaluationCountsEveryImage() throws {
        let (images, labels) = try TestSupport.fashionTest(count: 500)
        for name in ["fashion_cnn.ptl", "fashion_cnn_int8.tflite"] {
            let model = try Model(contentsOf: try TestSupport.courseModel(name))
            // The .tflite files record no labels: name the classes here.
            let names = model.labels ?? FashionMNIST.classNames
            let result = try model.evaluate(images: images, labels: labels, classNames: names, batchSize: 64,
                                            showsProgress: false)
            XCTAssertEqual(result.count, 500)
            XCTAssertEqual(result.confusion.count, 10)
            XCTAssertEqual(result.confusion.map { $0.reduce(0, +) }, (0..<10).map { c in labels.filter { $0 == c }.count })
            XCTAssertGreaterThan(result.accuracy, 0.85, name)
            XCTAssertEqual(result.batchSize, 64)
            XCTAssertTrue(result.mimeBundle.data["text/html"]!.contains("Ankle boot"))
        }
    }

    func testEvaluationRejectsMismatchedLabels() throws {
        let (images, _) = try TestSupport.fashionTest(count: 10)
        let model = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.pt"))
        XCTAssertThrowsError(try model.evaluate(images: images, labels: [1, 2], showsProgress: false))
    }

    func testClassifyRanksByProbability() throws {
        let (images, labels) = try TestSupport.fashionTest(count: 1)
        let input = try Tensor(shape: [1, 1, 28, 28], float32: images.floats)
        let prediction = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.pt")).classify(input)
        XCTAssertEqual(prediction.top.index, labels[0])
        XCTAssertEqual(prediction.top.label, "Ankle boot")
        XCTAssertEqual(prediction.ranked.map(\.probability).reduce(0, +), 1, accuracy: 1e-9)
        XCTAssertEqual(prediction.top(3).count, 3)
    }

    func testLiteRTThreadCountTakesEffect() throws {
        // XNNPACK makes a pool of `threads - 1` workers: more threads in the process.
        let path = try TestSupport.courseModel("fashion_cnn.tflite")
        let before = TestSupport.threadCount()
        let model = try Model(contentsOf: path, options: ModelOptions(threads: 1))
        _ = try model.run(try Tensor(shape: [1, 28, 28, 1], float32: [Float](repeating: 0.5, count: 784)))
        let withOne = TestSupport.threadCount()
        try model.setThreads(3)
        _ = try model.run(try Tensor(shape: [1, 28, 28, 1], float32: [Float](repeating: 0.5, count: 784)))
        let withThree = TestSupport.threadCount()
        XCTAssertEqual(model.threads, 3)
        XCTAssertGreaterThanOrEqual(withThree - withOne, 2, "threads: before \(before), 1 -> \(withOne), 3 -> \(withThree)")
    }

    func testTorchThreadsAreProcessWide() throws {
        let model = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.pt"))
        try model.setThreads(2)
        XCTAssertEqual(model.threads, 2)
        try model.setThreads(1)
        XCTAssertEqual(model.threads, 1)
        XCTAssertThrowsError(try model.setThreads(0))
    }
}
