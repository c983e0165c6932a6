import XCTest
@testable import BenchbookTensor

final class TensorShapeTests: XCTestCase {
    /// 0 ..< 24 as a [2, 3, 4] tensor.
    let t = try! Tensor(shape: [2, 3, 4], float32: (0..<24).map(Float.init))

    func testReshapeInfersOneAxis() throws {
        XCTAssertEqual(try t.reshaped(to: [4, -1]).shape, [4, 6])
        XCTAssertEqual(try t.reshaped(to: [24]).floats, t.floats)
        XCTAssertThrowsError(try t.reshaped(to: [5, -1]))
        XCTAssertThrowsError(try t.reshaped(to: [-1, -1]))
        XCTAssertThrowsError(try t.reshaped(to: [7]))
    }

    func testPermuteMatchesNumPyTranspose() throws {
        // numpy.arange(24).reshape(2, 3, 4).transpose(2, 0, 1)[1] == [[1, 5, 9], [13, 17, 21]]
        let p = try t.permuted([2, 0, 1])
        XCTAssertEqual(p.shape, [4, 2, 3])
        XCTAssertEqual(try p.slice(at: 1).floats, [1, 5, 9, 13, 17, 21])
        XCTAssertEqual(try p.permuted([1, 2, 0]).floats, t.floats)
        XCTAssertThrowsError(try t.permuted([0, 0, 1]))
    }

    func testSliceBatchAndChannel() throws {
        XCTAssertEqual(try t.slice(at: 1, alongAxis: 1).floats, [4, 5, 6, 7, 16, 17, 18, 19])
        XCTAssertEqual(try t.slice(at: 3, alongAxis: -1).floats, [3, 7, 11, 15, 19, 23])
        XCTAssertThrowsError(try t.slice(at: 3, alongAxis: 1))
        XCTAssertThrowsError(try t.slice(at: 0, alongAxis: 3))
        XCTAssertEqual(try t.batch(1..<2).floats, Array(12..<24).map(Float.init))
        XCTAssertThrowsError(try t.batch(1..<3))

        let image = try Tensor(shape: [1, 2, 2, 3], float32: (0..<12).map(Float.init), layout: .nhwc)
        let green = try image.channel(1)
        XCTAssertEqual(green.shape, [1, 2, 2, 1])
        XCTAssertEqual(green.floats, [1, 4, 7, 10])
        let nchw = try image.converted(to: .nchw)
        XCTAssertEqual(nchw.shape, [1, 3, 2, 2])
        XCTAssertEqual(nchw.layout, .nchw)
        XCTAssertEqual(try nchw.channel(1).floats, [1, 4, 7, 10])
    }

    func testElementTypeConversionRoundsHalfToEvenAndSaturates() throws {
        let x = try Tensor(shape: [5], float32: [0.5, 1.5, -3, 300, 2.49])
        XCTAssertEqual(x.converted(to: .uint8).storage, .uint8([0, 2, 0, 255, 2]))
        XCTAssertEqual(x.converted(to: .int8).storage, .int8([0, 2, -3, 127, 2]))
    }
}
