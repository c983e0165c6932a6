import BenchbookTensor
import XCTest
@testable import BenchbookImage

final class FashionMNISTTests: XCTestCase {
    func testReadsTheRealTestSplit() throws {
        let test = try FashionMNIST(split: .test)
        XCTAssertEqual(test.count, 10_000)
        XCTAssertEqual(test.pixels.count, 10_000 * 28 * 28)
        // The first t10k item is an ankle boot (label 9), the second a pullover (label 2).
        XCTAssertEqual(Array(test.labels.prefix(2)), [9, 2])
        XCTAssertEqual(try test.className(at: 0), "Ankle boot")
        XCTAssertEqual(try test.className(at: 1), "Pullover")
        // Balanced: 1,000 of each class.
        var counts = [Int](repeating: 0, count: 10)
        for label in test.labels { counts[Int(label)] += 1 }
        XCTAssertEqual(counts, [Int](repeating: 1000, count: 10))
        let image = try test.image(at: 0)
        XCTAssertEqual(image.size, Size(square: 28))
        XCTAssertEqual(image.format, .gray)
        XCTAssertEqual(image.pixels[0], 0, "items are light on a black background")
        let batch = try test.tensor(range: 0..<4)
        XCTAssertEqual(batch.shape, [4, 1, 28, 28])
        XCTAssertEqual(batch.floats.max(), 1)
        XCTAssertEqual(try image.tensor(normalization: .unit).floats, try batch.batch(0..<1).floats)
        XCTAssertThrowsError(try test.image(at: 10_000))
    }

    func testClassNamesAreInDatasetOrder() {
        XCTAssertEqual(FashionMNIST.classNames, ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                 "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"])
    }

    func testMissingOrCorruptFilesAreTypedErrors() throws {
        XCTAssertThrowsError(try FashionMNIST(split: .test, directory: "/nonexistent")) { error in
            guard case .unreadable(let path, _) = error as? IDXError else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("t10k-images-idx3-ubyte.gz"))
            XCTAssertTrue("\(error)".contains("dataset-fashion-mnist"))
        }
        // A truncated gzip stream and a wrong element type.
        let gz = try readFileBytes("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz")
        XCTAssertThrowsError(try IDXFile(data: Array(gz.prefix(gz.count / 2)))) { error in
            guard case .corrupt(_, let reason) = error as? IDXError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("gzip"), reason)
        }
        XCTAssertThrowsError(try IDXFile(data: [0, 0, 0x0D, 1, 0, 0, 0, 1, 0, 0, 0, 0]))
        let parsed = try IDXFile(data: [0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6])
        XCTAssertEqual(parsed.dimensions, [2, 3])
        XCTAssertEqual(parsed.bytes, [1, 2, 3, 4, 5, 6])
        XCTAssertThrowsError(try IDXFile(data: [0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3]))
    }
}
