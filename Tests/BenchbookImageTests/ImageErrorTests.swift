import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookImage

/// Each failure is a typed error whose text says what, where and what to do.
final class ImageErrorTests: XCTestCase {
    let image = try! Image(width: 4, height: 3, format: .rgb, filledWith: [10, 20, 30])

    func testTruncatedPNGIsACorruptFileError() throws {
        let png = try [UInt8](image.pngData())
        XCTAssertNoThrow(try Image(data: png))
        XCTAssertThrowsError(try Image(data: png.prefix(png.count - 20))) { error in
            guard case .corruptFile(let format, _) = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertEqual(format, "PNG")
            XCTAssertTrue((error as! ImageError).description.contains("truncated"))
        }
    }

    func testCorruptJPEGIsACorruptFileError() throws {
        let jpeg = try [UInt8](image.jpegData())
        XCTAssertEqual(try Image(data: jpeg).size, Size(width: 4, height: 3))
        XCTAssertThrowsError(try Image(data: jpeg.prefix(30))) { error in
            guard case .corruptFile(let format, _) = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertEqual(format, "JPEG")
        }
    }

    func testJPEGCutInsideTheImageDataIsTruncatedNotGrayPadded() throws {
        var noisy = [UInt8](repeating: 0, count: 96 * 64 * 3)
        var state: UInt32 = 7
        for i in noisy.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            noisy[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        let jpeg = try [UInt8](Image(width: 96, height: 64, format: .rgb, pixels: noisy).jpegData(quality: 90))
        XCTAssertThrowsError(try Image(data: jpeg.prefix(jpeg.count * 6 / 10))) { error in
            guard case .corruptFile(let format, let reason) = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertEqual(format, "JPEG")
            XCTAssertTrue(reason.contains("truncated"), reason)
        }
        // Like Pillow ("image file is truncated"), even a missing end-of-image marker is an
        // error; bytes after the marker are ignored.
        XCTAssertThrowsError(try Image(data: jpeg.dropLast(2)))
        XCTAssertEqual(try Image(data: jpeg + [0, 1, 2]).size, Size(width: 96, height: 64))
    }

    func testUnsupportedFormatAndEmptyData() {
        let gif = Array("GIF89a".utf8) + [0, 0, 0, 0]
        XCTAssertThrowsError(try Image(data: gif)) { error in
            guard case .unsupportedFormat(let detail) = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("47 49 46"), detail)
        }
        XCTAssertThrowsError(try Image(data: [UInt8]())) { error in
            XCTAssertTrue("\(error)".contains("empty"))
        }
        XCTAssertThrowsError(try Image(contentsOfFile: "/nonexistent/cat.png")) { error in
            guard case .unreadableFile = error as? ImageError else { return XCTFail("\(error)") }
        }
    }

    func testEmptyImageAndWrongSampleCount() {
        XCTAssertThrowsError(try Image(width: 0, height: 5, format: .gray, pixels: [])) { error in
            guard case .emptyImage = error as? ImageError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Image(width: 2, height: 2, format: .rgb, pixels: [1, 2, 3])) { error in
            XCTAssertEqual(error as? ImageError, .sampleCountMismatch(expected: 12, actual: 3))
        }
        XCTAssertThrowsError(try image.resized(width: 0, height: 10))
    }

    func testCropOutsideTheImageSaysWhere() {
        let box = Box(left: 2, top: 1, right: 6, bottom: 3)
        XCTAssertThrowsError(try image.cropped(to: box)) { error in
            XCTAssertEqual(error as? ImageError, .cropOutsideImage(box: box, size: Size(width: 4, height: 3)))
            XCTAssertTrue("\(error)".contains("(2, 1, 6, 3)") && "\(error)".contains("4x3"), "\(error)")
        }
        XCTAssertThrowsError(try image.centerCropped(to: Size(square: 5)))
        XCTAssertEqual(try image.cropped(to: Box(left: 1, top: 1, right: 3, bottom: 2)).size, Size(width: 2, height: 1))
    }

    func testAutoCropOnABlankImageThrows() {
        XCTAssertThrowsError(try image.autoCropped()) { error in
            guard case .emptyImage(let detail) = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("threshold"))
        }
    }

    func testNormalisationChannelMismatch() {
        let gray = image.grayscale()
        XCTAssertThrowsError(try gray.tensor(normalization: .imageNet)) { error in
            guard case .invalidArgument(let detail) = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("imageNet"))
        }
        XCTAssertEqual(try gray.tensor(normalization: .unit).shape, [1, 1, 3, 4])
    }

    func testTensorShapeMismatch() throws {
        let a = try Tensor(shape: [2, 3], float32: [1, 2, 3, 4, 5, 6])
        let b = try Tensor(shape: [3, 2], float32: [1, 2, 3, 4, 5, 6])
        XCTAssertThrowsError(try a + b) { error in
            guard case .shapeMismatch(let text) = error as? TensorError else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("[2, 3]") && text.contains("[3, 2]"), text)
        }
    }
}
