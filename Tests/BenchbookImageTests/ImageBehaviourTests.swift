import BenchbookRuntime
import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookImage

final class ImageBehaviourTests: XCTestCase {
    /// A 5x3 RGB image whose pixel (x, y) is (x * 50, y * 100, 7).
    let image: Image = {
        var pixels: [UInt8] = []
        for y in 0..<3 { for x in 0..<5 { pixels += [UInt8(x * 50), UInt8(y * 100), 7] } }
        return try! Image(width: 5, height: 3, format: .rgb, pixels: pixels)
    }()

    func testPNGRoundTripForEveryPixelFormat() throws {
        for format in PixelFormat.allCases {
            let source = image.converted(to: format)
            XCTAssertEqual(source.format, format)
            XCTAssertEqual(try Image(data: try source.pngData()), source, "\(format)")
        }
        XCTAssertEqual(image.converted(to: .rgba).converted(to: .rgb), image)
        XCTAssertEqual(try image.converted(to: .gray).pixel(x: 4, y: 2), [image.grayscale().pixels[14]])
    }

    func testWritePNGWritesWhatDecodesBackAndSaysWhichPathFailed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("image.png").path
        try image.writePNG(toFile: path)
        XCTAssertEqual(try Image(data: Data(contentsOf: URL(fileURLWithPath: path))), image)
        try image.converted(to: .gray).writePNG(toFile: path)   // an existing file is replaced
        XCTAssertEqual(try Image(data: Data(contentsOf: URL(fileURLWithPath: path))), image.converted(to: .gray))
        let missing = directory.appendingPathComponent("no-such-folder/image.png").path
        XCTAssertThrowsError(try image.writePNG(toFile: missing)) { error in
            guard case ImageError.encodingFailed(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains(missing), message)
        }
    }

    func testCenterCroppedToSquareKeepsTheMiddleOfTheLongerSide() throws {
        // 5x3: the square is 3x3, starting at x = 1.
        let square = try image.centerCroppedToSquare()
        XCTAssertEqual(square.size, Size(square: 3))
        XCTAssertEqual(try square.pixel(x: 0, y: 0), [50, 0, 7])
        XCTAssertEqual(try square.pixel(x: 2, y: 2), [150, 200, 7])
        let tall = try Image(width: 2, height: 4, format: .gray, pixels: [0, 1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(try tall.centerCroppedToSquare().pixels, [2, 3, 4, 5])
        XCTAssertEqual(try square.centerCroppedToSquare(), square)
    }

    func testJPEGDraftPicksTheSmallestScaleKeepingTheTarget() throws {
        XCTAssertEqual(Image.draftScaleEighths(width: 4032, height: 3024, draft: Size(square: 224), pillowCompatible: false), 1)
        XCTAssertEqual(Image.draftScaleEighths(width: 4032, height: 3024, draft: Size(square: 500), pillowCompatible: false), 2)
        XCTAssertEqual(Image.draftScaleEighths(width: 4032, height: 3024, draft: Size(square: 500), pillowCompatible: true), 2)
        // Pillow only halves: 1000 // 300 = 3 allows a reduction of 2 (500 px); eighths allow 3/8 (375 px).
        XCTAssertEqual(Image.draftScaleEighths(width: 1000, height: 1000, draft: Size(square: 300), pillowCompatible: true), 4)
        XCTAssertEqual(Image.draftScaleEighths(width: 1000, height: 1000, draft: Size(square: 300), pillowCompatible: false), 3)
        XCTAssertEqual(Image.draftScaleEighths(width: 100, height: 100, draft: Size(square: 224), pillowCompatible: false), 8)
        let big = try Image(width: 640, height: 480, format: .rgb, filledWith: [200, 100, 50])
        let jpeg = try big.jpegData(quality: 90)
        let decoded = try Image(data: jpeg, options: DecodingOptions(draftSize: Size(width: 200, height: 150)))
        XCTAssertEqual(decoded.size, Size(width: 240, height: 180))  // 3/8 of 640x480
        XCTAssertEqual(try decoded.pixel(x: 100, y: 100).map(Int.init).map { $0 / 4 }, [50, 25, 12])
    }

    func testOrientationAndFlips() throws {
        let turned = image.rotatedClockwise()
        XCTAssertEqual(turned.size, Size(width: 3, height: 5))
        // The bottom-left pixel (0, 2) becomes the top-left after a clockwise quarter turn.
        XCTAssertEqual(try turned.pixel(x: 0, y: 0), try image.pixel(x: 0, y: 2))
        XCTAssertEqual(image.flippedHorizontally().flippedHorizontally(), image)
        XCTAssertEqual(try image.flippedVertically().pixel(x: 1, y: 0), try image.pixel(x: 1, y: 2))
        for orientation in ExifOrientation.allCases {
            XCTAssertEqual(image.oriented(orientation).pixels.count, image.pixels.count)
        }
    }

    func testPaddingChannelOrderAndTensorLayouts() throws {
        let square = image.paddedToSquare(with: .white)
        XCTAssertEqual(square.size, Size(square: 5))
        XCTAssertEqual(try square.pixel(x: 0, y: 0), [255, 255, 255])
        XCTAssertEqual(try square.pixel(x: 2, y: 2), try image.pixel(x: 2, y: 1))
        XCTAssertEqual(try image.swappingRedAndBlue().pixel(x: 1, y: 0), [7, 0, 50])

        let nchw = try image.tensor(normalization: .raw, layout: .nchw)
        let nhwc = try image.tensor(normalization: .raw, layout: .nhwc, batched: false)
        XCTAssertEqual(nchw.shape, [1, 3, 3, 5])
        XCTAssertEqual(nhwc.shape, [3, 5, 3])
        XCTAssertEqual(Array(nchw.floats.prefix(5)), [0, 50, 100, 150, 200])
        XCTAssertEqual(Array(nhwc.floats.prefix(3)), [0, 0, 7])
        let bgr = try image.tensor(normalization: .raw, layout: .nhwc, channelOrder: .bgr)
        XCTAssertEqual(Array(bgr.floats.prefix(6)), [7, 0, 0, 7, 0, 50])
        XCTAssertEqual(try nchw.converted(to: .nhwc).floats, try image.tensor(normalization: .raw, layout: .nhwc).floats)
        let raw = image.pixelTensor()
        XCTAssertEqual(raw.shape, [1, 3, 5, 3])
        XCTAssertEqual(raw.elementType, .uint8)
        XCTAssertEqual(raw.floats, nhwc.floats)
        XCTAssertEqual(image.pixelTensor(layout: .nchw).floats, nchw.floats)
        let symmetric = try image.tensor(normalization: .symmetric)
        XCTAssertEqual(symmetric.floats.min(), -1)
        let custom = try image.tensor(normalization: .custom(mean: [0.5], std: [0.5]))
        XCTAssertEqual(custom.floats[0], -1)
    }

    func testResizeConvenienceAndAlphaFlatten() throws {
        XCTAssertEqual(try image.resized(shorterSide: 6).size, Size(width: 10, height: 6))
        XCTAssertEqual(try image.resized(to: Size(square: 2), filter: .area).size, Size(square: 2))
        let transparent = try Image(width: 2, height: 1, format: .rgba, pixels: [255, 0, 0, 0, 255, 0, 0, 255])
        XCTAssertEqual(transparent.flattened(onto: .white).pixels, [255, 255, 255, 255, 0, 0])
        XCTAssertEqual(transparent.flattened(onto: .black).pixels, [0, 0, 0, 255, 0, 0])
    }

    func testDisplaysAsInlinePNG() throws {
        XCTAssertEqual(image.description, "Image(5x3, rgb)")
        let bundle = image.mimeBundle
        XCTAssertEqual(bundle.data["text/plain"], "Image(5x3, rgb)")
        let png = try XCTUnwrap(bundle.data["image/png"].flatMap { Data(base64Encoded: $0) })
        // 5x3 is shown 8x larger with nearest neighbour: every pixel becomes an 8x8 square.
        let shown = try Image(data: png)
        XCTAssertEqual(shown.size, Size(width: 40, height: 24))
        XCTAssertEqual(try shown.pixel(x: 39, y: 23), try image.pixel(x: 4, y: 2))
        XCTAssertEqual(try shown.pixel(x: 8, y: 7), try image.pixel(x: 1, y: 0))
        XCTAssertEqual(bundle.imageSize?.width, 40)
        let large = try Image(width: 300, height: 200, format: .gray, filledWith: [9])
        XCTAssertEqual(large.mimeBundle.imageSize?.width, 300)
    }
}
