import BenchbookImage
import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// The pretrained EfficientNet-Lite0 on the course photos, end to end from Swift (decode,
/// the file's own preprocessing, every runtime) against the same files run in Python
/// (scripts/models/make_efficientnet_torch.py and make_efficientnet_tflite.py write the
/// references at set-up).
final class ImageNetPhotoTests: XCTestCase {
    static let referenceDirectory = TestSupport.generatedDirectory + "/reference"
    static let floatFiles = ["efficientnet_lite0.pt", "efficientnet_lite0.ptl", "efficientnet_lite0_noprepack.ptl",
                             "efficientnet_lite0.tflite"]
    static let int8Files = ["efficientnet_lite0_int8.pt", "efficientnet_lite0_int8.ptl", "efficientnet_lite0_int8.tflite"]

    struct Photo {
        var file: String
        var crop: String
        var logits: [String: [Float]]
    }

    /// The reference photos with Python's logits for every file.
    static func photos() throws -> [Photo] {
        var photos: [Photo] = []
        for name in ["imagenet_photos.json", "imagenet_photos_tflite.json"] {
            let path = referenceDirectory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else {
                XCTFail("\(path) is missing; run `make models`")
                throw XCTSkip("missing references")
            }
            let record = try JSONSerialization.jsonObject(with: data) as! [String: Any]
            for (index, entry) in (record["photos"] as! [[String: Any]]).enumerated() {
                let logits = (entry["logits"] as! [String: [NSNumber]]).mapValues { $0.map(\.floatValue) }
                if index < photos.count {
                    photos[index].logits.merge(logits) { first, _ in first }
                } else {
                    photos.append(Photo(file: entry["file"] as! String, crop: entry["crop"] as? String ?? "",
                                        logits: logits))
                }
            }
        }
        return photos
    }

    static func model(_ name: String) throws -> Model {
        try Model(contentsOf: TestSupport.generatedDirectory + "/" + name,
                  options: ModelOptions(threads: 1, quantizedEngine: "qnnpack"))
    }

    static func image(_ file: String) throws -> Image {
        try Image(contentsOfFile: TestSupport.generatedDirectory + "/sources/images/" + file)
    }

    static func top(_ k: Int, _ logits: [Float]) -> [Int] {
        Array(logits.indices.sorted { logits[$0] != logits[$1] ? logits[$0] > logits[$1] : $0 < $1 }.prefix(k))
    }

    /// The library's crop of each photo is Pillow's, pixel for pixel.
    func testPreprocessingMatchesPillow() throws {
        let recipe = try XCTUnwrap(try Self.model("efficientnet_lite0.ptl").preprocessing)
        XCTAssertEqual(recipe.normalization, .efficientNetLite)
        for photo in try Self.photos() {
            let ours = try recipe.apply(to: try Self.image(photo.file))
            let pillow = try Image(contentsOfFile: Self.referenceDirectory + "/" + photo.crop)
            XCTAssertEqual(ours.size, pillow.size, photo.file)
            XCTAssertEqual(ours.format, .rgb, photo.file)
            XCTAssertEqual(ours.pixels, pillow.pixels, "\(photo.file): the crop differs from Pillow's")
        }
    }

    /// Every float format: Swift's top 5 (indices and order) are Python's, logits within 1e-4.
    func testFloatFormatsMatchPythonOnEveryPhoto() throws {
        let photos = try Self.photos()
        XCTAssertGreaterThanOrEqual(photos.count, 6)
        for file in Self.floatFiles {
            let model = try Self.model(file)
            XCTAssertEqual(model.labels?.count, 1000, file)
            var largest: Float = 0
            for photo in photos {
                let expected = try XCTUnwrap(photo.logits[file], "\(file) has no Python reference")
                let prediction = try model.classify(try Self.image(photo.file))
                XCTAssertEqual(prediction.top(5).map(\.index), Self.top(5, expected), "\(file), \(photo.file)")
                let difference = zip(prediction.logits, expected).map { abs($0 - $1) }.max() ?? .infinity
                largest = max(largest, difference)
                XCTAssertLessThanOrEqual(difference, 1e-4, "\(file), \(photo.file)")
            }
            print("imagenet \(file): max |Swift - Python logit| over \(photos.count) photos = \(largest)")
        }
    }

    /// int8 files give Python's output; their top-1 agreement with float is reported.
    func testInt8FormatsMatchPythonAndReportAgreement() throws {
        let photos = try Self.photos()
        for file in Self.int8Files {
            let model = try Self.model(file)
            var agreeing = 0
            for photo in photos {
                let expected = try XCTUnwrap(photo.logits[file], "\(file) has no Python reference")
                let prediction = try model.classify(try Self.image(photo.file))
                let difference = zip(prediction.logits, expected).map { abs($0 - $1) }.max() ?? .infinity
                // One quantisation step of the output is the most an int8 kernel may differ by.
                let step = model.outputs.first?.quantization?.scale ?? 1e-4
                XCTAssertLessThanOrEqual(difference, max(step, 1e-4) * 1.01, "\(file), \(photo.file)")
                let floatFile = file.replacingOccurrences(of: "_int8", with: "")
                let floatTop = Self.top(1, photo.logits[floatFile] ?? [])
                let same = prediction.top.index == floatTop.first
                agreeing += same ? 1 : 0
                print("imagenet \(file) \(photo.file): int8 \(prediction.top.label), float \(floatTop.first.map { model.labels![$0] } ?? "?")"
                      + (same ? "" : "  (differs)"))
            }
            print("imagenet \(file): top-1 agreement with \(file.replacingOccurrences(of: "_int8", with: "")) "
                  + "\(agreeing) of \(photos.count)")
        }
    }

    /// `predictTop5` works from a decoded photo in every format, with names.
    func testPredictTop5InEveryFormat() throws {
        let photo = try Self.image("coffee.png")
        for file in Self.floatFiles + Self.int8Files {
            let top5 = try Self.model(file).predictTop5(photo)
            XCTAssertEqual(top5.count, 5, file)
            XCTAssertEqual(top5.first?.label, "espresso", file)
            XCTAssertTrue(zip(top5, top5.dropFirst()).allSatisfy { $0.probability >= $1.probability }, file)
        }
    }

    /// The TensorFlow Lite files take what the course's TFLite app sends: RGB bytes, with
    /// the normalisation inside the model.
    func testTFLiteFilesTakeRGBBytes() throws {
        let int8 = try Self.model("efficientnet_lite0_int8.tflite")
        XCTAssertEqual(int8.inputs.first?.elementType, .uint8)
        XCTAssertEqual(int8.inputs.first?.quantization, Quantization(scale: 1, zeroPoint: 0))
        let photo = try Self.image("rocket.jpg")
        let input = try int8.input(from: photo)
        let bytes = try XCTUnwrap(int8.preprocessing).apply(to: photo).pixelTensor(layout: .nhwc)
        XCTAssertEqual(input.storage, bytes.storage, "uint8 input must be the RGB bytes themselves")
        let float = try Self.model("efficientnet_lite0.tflite")
        XCTAssertEqual(float.preprocessing?.normalization, .raw)
        XCTAssertEqual(float.preprocessing?.layout, .nhwc)
    }
}
