import XCTest
@testable import BenchbookTensor

final class TensorArithmeticTests: XCTestCase {
    func testElementwiseAndScalarBroadcast() throws {
        let a = try Tensor(shape: [2, 2], float32: [1, 2, 3, 4])
        let b = try Tensor(shape: [2, 2], storage: .uint8([10, 20, 30, 40]))
        XCTAssertEqual(try (a + b).floats, [11, 22, 33, 44])
        XCTAssertEqual(try (b - a).floats, [9, 18, 27, 36])
        XCTAssertEqual(try (a * a).floats, [1, 4, 9, 16])
        XCTAssertEqual(try (b / a).floats, [10, 10, 10, 10])
        XCTAssertEqual((a * 2 + 1).floats, [3, 5, 7, 9])
        let one = try Tensor(shape: [1], float32: [10])
        XCTAssertEqual(try (a * one).floats, [10, 20, 30, 40])
        XCTAssertThrowsError(try a + (try Tensor(shape: [4], float32: [1, 2, 3, 4])))
    }

    func testReductionsAlongAxes() throws {
        // numpy.arange(6).reshape(2, 3)
        let t = try Tensor(shape: [2, 3], float32: [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(t.sum(), 15)
        XCTAssertEqual(t.mean(), 2.5)
        XCTAssertEqual(t.max(), 5)
        XCTAssertEqual(t.argmax(), 5)
        XCTAssertEqual(try t.sum(alongAxis: 0).floats, [3, 5, 7])
        XCTAssertEqual(try t.sum(alongAxis: 1).floats, [3, 12])
        XCTAssertEqual(try t.mean(alongAxis: -1).floats, [1, 4])
        XCTAssertEqual(try t.max(alongAxis: 0).floats, [3, 4, 5])
        let logits = try Tensor(shape: [2, 3], float32: [0.1, 0.9, 0.9, 5, -1, 2])
        let predictions = try logits.argmax(alongAxis: -1)
        XCTAssertEqual(predictions.storage, .int64([1, 0]))  // first of a tie, as NumPy
        XCTAssertThrowsError(try t.sum(alongAxis: 2))
    }

    func testSoftmaxIsStableForHugeLogits() throws {
        let logits = try Tensor(shape: [3], float32: [1e4, -1e4, 1e4])
        let p = try logits.softmax().floats
        XCTAssertEqual(p, [0.5, 0, 0.5])
        let logP = try logits.logSoftmax().floats
        XCTAssertEqual(logP[0], -Float(0.6931472), accuracy: 1e-6)
        XCTAssertEqual(logP[1], -2e4 - 0.6931472, accuracy: 1e-2)
        XCTAssertEqual(try logits.softmax().topK(2).map(\.index), [0, 2])
        XCTAssertThrowsError(try logits.topK(4))
        let batch = try Tensor(shape: [2, 3], float32: [1, 2, 3, 3, 2, 1])
        XCTAssertThrowsError(try batch.topK(1), "topK(_:) is for one row")
        XCTAssertEqual(try batch.topK(1, alongAxis: -1).indices.storage, .int64([2, 0]))
        // Softmax along axis 0 sums to one down each column.
        XCTAssertEqual(try batch.softmax(alongAxis: 0).sum(alongAxis: 0).floats.map { ($0 * 1e5).rounded() }, [1e5, 1e5, 1e5])
    }
}
