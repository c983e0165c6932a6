import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// Typed errors for the ways loading and running go wrong; nothing may crash.
final class ErrorTests: XCTestCase {
    private var scratch: String!

    override func setUpWithError() throws {
        scratch = NSTemporaryDirectory() + "benchbook-model-errors-\(getpid())"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: scratch) }

    private func loadError(_ path: String, options: ModelOptions = ModelOptions()) -> ModelError? {
        do {
            _ = try Model(contentsOf: path, options: options)
            return nil
        } catch { return error }
    }

    func testMissingFileNamesThePath() {
        let error = loadError(scratch + "/nothing.pt")
        XCTAssertEqual(error, .fileNotFound(path: scratch + "/nothing.pt"))
        XCTAssertTrue(error!.description.contains("nothing.pt"))
    }

    func testTFLiteFileNamedPtIsWrongFormat() throws {
        let copy = scratch + "/model.pt"
        try FileManager.default.copyItem(atPath: try TestSupport.courseModel("fashion_cnn.tflite"), toPath: copy)
        XCTAssertEqual(loadError(copy), .wrongFormat(path: copy, expected: .torchScript, found: "TensorFlow Lite"))
    }

    func testForcedFormatIsChecked() throws {
        let path = try TestSupport.courseModel("fashion_cnn.pt")
        XCTAssertEqual(loadError(path, options: ModelOptions(format: .tensorFlowLite)),
                       .wrongFormat(path: path, expected: .tensorFlowLite, found: "TorchScript"))
    }

    func testGarbageFilesAreCorruptModels() throws {
        for name in ["junk.pt", "junk.ptl", "junk.tflite"] {
            let path = scratch + "/" + name
            try Data("this is not a model at all, just text".utf8).write(to: URL(fileURLWithPath: path))
            guard case .corruptModel(let reported, _, let reason)? = loadError(path) else {
                return XCTFail("\(name) should be a corrupt model, got \(String(describing: loadError(path)))")
            }
            XCTAssertEqual(reported, path)
            XCTAssertFalse(reason.isEmpty)
        }
    }

    func testUnknownExtensionAndContents() throws {
        let path = scratch + "/weights.bin"
        try Data([1, 2, 3, 4, 5, 6, 7, 8]).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(loadError(path), .unknownFormat(path: path))
    }

    func testWrongInputShapeSaysExpectedAndGiven() throws {
        for name in ["fashion_cnn.pt", "fashion_cnn.ptl", "fashion_cnn.tflite"] {
            let model = try Model(contentsOf: try TestSupport.courseModel(name))
            let wrong = try Tensor(shape: [1, 28, 28], float32: [Float](repeating: 0, count: 784))
            XCTAssertThrowsError(try model.run(wrong)) { error in
                guard case .inputShape(_, let input, let expected, let given)? = error as? ModelError else {
                    return XCTFail("\(name): expected inputShape, got \(error)")
                }
                XCTAssertEqual(input, "image")
                XCTAssertEqual(given, [1, 28, 28])
                XCTAssertEqual(expected.count, 4)
                XCTAssertTrue(String(describing: error).contains("[1, 28, 28]"))
            }
        }
    }

    func testWrongInputTypeIsRejected() throws {
        let model = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn_int8.tflite"))
        let floats = try Tensor(shape: [1, 28, 28, 1], float32: [Float](repeating: 0, count: 784))
        XCTAssertThrowsError(try model.run(floats)) { error in
            XCTAssertEqual(error as? ModelError,
                           .inputType(path: model.path, input: "image", expected: .int8, given: .float32))
        }
        XCTAssertThrowsError(try model.run([floats, floats])) { error in
            XCTAssertEqual(error as? ModelError, .inputCount(path: model.path, expected: 1, given: 2))
        }
    }

    func testMissingLiteRTLibraryNamesWhereItLooked() {
        let located = LiteRTLibrary.candidatePaths(environment: ["BENCHBOOK_LITERT_LIBRARY": "/nowhere/libLiteRt.so"])
        XCTAssertNil(located.found)
        XCTAssertEqual(located.searched.first, "/nowhere/libLiteRt.so (BENCHBOOK_LITERT_LIBRARY)")
        let error = ModelError.runtimeLibraryMissing(runtime: "LiteRT", searched: located.searched, reason: "not found")
        XCTAssertTrue(error.description.contains("/nowhere/libLiteRt.so"))
        XCTAssertTrue(error.description.contains("BENCHBOOK_LITERT_LIBRARY"))
    }

    func testLiteRTLibraryIsFoundInTheVenv() {
        let located = LiteRTLibrary.candidatePaths(environment: [:])
        XCTAssertNotNil(located.found)
        XCTAssertTrue(located.found?.hasSuffix("ai_edge_litert/libLiteRt.so") ?? false)
    }

    func testQuantizedEngines() throws {
        let model = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn_int8.pt"))
        XCTAssertTrue(Model.supportedQuantizedEngines.contains("qnnpack"))
        XCTAssertEqual(model.quantizedEngine, "qnnpack")
        if Model.supportedQuantizedEngines.contains("onednn") {
            try model.setQuantizedEngine("onednn")
            XCTAssertEqual(model.quantizedEngine, "onednn")
            try model.setQuantizedEngine("qnnpack")
        }
        XCTAssertThrowsError(try model.setQuantizedEngine("tensorrt"))
        let lite = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.tflite"))
        XCTAssertNil(lite.quantizedEngine)
        XCTAssertThrowsError(try lite.setQuantizedEngine("qnnpack"))
    }
}
