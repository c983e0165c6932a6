import BenchbookTensor
import XCTest
@testable import BenchbookImage

final class PreprocessingTests: XCTestCase {
    /// A 300x200 photo-like image: a dark item on a white background, with an alpha hole.
    let photo: Image = {
        var pixels: [UInt8] = []
        for y in 0..<200 {
            for x in 0..<300 {
                let item = (80..<220).contains(x) && (50..<170).contains(y)
                pixels += item ? [UInt8(60 + x / 5), 40, UInt8(20 + y / 4), 255] : [255, 255, 255, x < 4 ? 0 : 255]
            }
        }
        return try! Image(width: 300, height: 200, format: .rgba, pixels: pixels)
    }()

    func testMobileNetV2RecipeEqualsTheHandWrittenChain() throws {
        let tensor = try Preprocessing.mobileNetV2.tensor(from: photo)
        XCTAssertEqual(tensor.shape, [1, 3, 224, 224])
        let byHand = try photo.flattened(onto: .white).resized(shorterSide: 256, filter: .bilinear)
            .centerCropped(to: Size(square: 224)).tensor(normalization: .imageNet, layout: .nchw)
        XCTAssertEqual(tensor.floats, byHand.floats)
    }

    func testChangingOneChoiceChangesTheTensor() throws {
        var nearest = Preprocessing.mobileNetV2
        nearest.resizeFilter = .nearest
        let difference = try nearest.tensor(from: photo).maxAbsoluteDifference(try Preprocessing.mobileNetV2.tensor(from: photo))
        XCTAssertGreaterThan(difference, 0.01)
        var bgr = Preprocessing.mobileNetV2
        bgr.channelOrder = .bgr
        XCTAssertNotEqual(try bgr.tensor(from: photo).floats, try Preprocessing.mobileNetV2.tensor(from: photo).floats)
    }

    func testFashionMNISTRecipeMakesALightItemOnBlack() throws {
        let image = try Preprocessing.fashionMNIST.apply(to: photo)
        XCTAssertEqual(image.size, Size(square: 28))
        XCTAssertEqual(image.format, .gray)
        XCTAssertEqual(try image.pixel(x: 0, y: 0), [0], "padding and background are black")
        XCTAssertGreaterThan(try image.pixel(x: 14, y: 14)[0], 150, "the dark item becomes light")
        let tensor = try Preprocessing.fashionMNIST.tensor(from: photo)
        XCTAssertEqual(tensor.shape, [1, 1, 28, 28])
        XCTAssertEqual(tensor.floats.max()!, Float(image.pixels.max()!) / 255)
    }

    func testTFLiteRecipeAndDescription() throws {
        let tensor = try Preprocessing.tfliteApp.tensor(from: photo)
        XCTAssertEqual(tensor.shape, [1, 224, 224, 3])
        XCTAssertEqual(tensor.floats.max(), 255)
        let text = Preprocessing.mobileNetV2.description
        XCTAssertTrue(text.contains("resize shorter side 256 (bilinear)"), text)
        XCTAssertTrue(text.contains("centre crop 224x224"), text)
        XCTAssertTrue(text.hasSuffix("tensor imageNet, RGB, NCHW"), text)
    }

    func testAStepThatCannotRunThrows() {
        var recipe = Preprocessing()
        recipe.centerCrop = Size(square: 400)
        XCTAssertThrowsError(try recipe.tensor(from: photo)) { error in
            guard case .cropOutsideImage = error as? ImageError else { return XCTFail("\(error)") }
        }
    }
}
