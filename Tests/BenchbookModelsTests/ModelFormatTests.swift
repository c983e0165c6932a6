import Foundation
import XCTest
@testable import BenchbookModels

final class ModelFormatTests: XCTestCase {
    func testExtensionsMapToFormats() {
        XCTAssertEqual(ModelFormat(fileExtension: "PT"), .torchScript)
        XCTAssertEqual(ModelFormat(fileExtension: "ptl"), .pyTorchLite)
        XCTAssertEqual(ModelFormat(fileExtension: "tflite"), .tensorFlowLite)
        XCTAssertEqual(ModelFormat(fileExtension: "pte"), .execuTorch)
        XCTAssertNil(ModelFormat(fileExtension: "onnx"))
    }

    func testSignatureReadsContents() {
        XCTAssertEqual(ModelFormat.Signature(contents: Data([0, 0, 0, 0]) + Data("TFL3".utf8)), .tensorFlowLite)
        XCTAssertEqual(ModelFormat.Signature(contents: Data([0x50, 0x4B, 3, 4]) + Data("x/bytecode.pkl".utf8)),
                       .pyTorchLiteZip)
        XCTAssertEqual(ModelFormat.Signature(contents: Data([0x50, 0x4B, 3, 4, 1, 2])), .torchScriptZip)
        XCTAssertEqual(ModelFormat.Signature(contents: Data("hello world".utf8)), .unknown)
        XCTAssertEqual(ModelFormat.Signature(contents: Data([0x3c, 0, 0, 0]) + Data("ET12eh00".utf8)), .execuTorch)
        XCTAssertEqual(ModelFormat.Signature(contents: Data([0x3c, 0, 0, 0]) + Data("ETxy".utf8)), .unknown)
    }
}
