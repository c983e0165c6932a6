import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// Swift's outputs against the same models run in Python (torch, ai_edge_litert), from the
/// reference files scripts/models/reference_torch.py and reference_tflite.py write.
final class ReferenceTests: XCTestCase {
    /// The committed references, and the set-up ones for MobileNetV2 when present: files named
    /// after their model (`<model>.<pt|ptl|tflite>.json`); the photo references beside them
    /// (`imagenet_photos*.json`) belong to ImageNetPhotoTests.
    static var referenceFiles: [String] {
        var directories = [TestSupport.root + "/Tests/Fixtures/models", TestSupport.generatedDirectory + "/reference"]
        if let extra = ProcessInfo.processInfo.environment["BENCHBOOK_MODELS_REFERENCE"] { directories = [extra] }
        return directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".json") && ModelFormat(fileExtension: (($0 as NSString).deletingPathExtension as NSString).pathExtension) != nil }
                .sorted().map { directory + "/" + $0 }
        }
    }

    func testEveryFormatMatchesPython() throws {
        let files = Self.referenceFiles
        let formats = Set(files.compactMap { ModelFormat(fileExtension: (($0 as NSString).deletingPathExtension as NSString).pathExtension) })
        XCTAssertEqual(formats, Set(ModelFormat.allCases), "references must cover .pt, .ptl, .tflite and .pte")
        XCTAssertGreaterThanOrEqual(files.count, 6)
        for file in files { try check(file) }
    }

    private func check(_ file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let record = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var path = record["model"] as! String
        if !path.hasPrefix("/") { path = TestSupport.root + "/" + path }
        let model = try Model(contentsOf: path, options: ModelOptions(threads: 1, quantizedEngine: "qnnpack"))
        var largest: Float = 0
        for (index, entry) in (record["cases"] as! [[String: Any]]).enumerated() {
            let input = try TestSupport.tensor(entry["input"] as! [String: Any])
            let expected = try TestSupport.tensor(entry["output"] as! [String: Any])
            let output = try model.run(input)
            XCTAssertEqual(output.shape, expected.shape, "\(file) case \(index)")
            XCTAssertEqual(output.elementType, expected.elementType, "\(file) case \(index)")
            switch expected.storage {
            case .int8, .uint8:
                XCTAssertEqual(output.storage, expected.storage, "\(file) case \(index): int8 outputs must match exactly")
            default:
                let difference = zip(output.floats, expected.floats).map { abs($0 - $1) }.max() ?? .infinity
                largest = max(largest, difference)
                XCTAssertLessThanOrEqual(difference, 1e-4, "\(file) case \(index)")
            }
        }
        print("reference \((file as NSString).lastPathComponent): max |Swift - Python| = \(largest)")
    }
}
