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

final class TensorQuantizationTests: XCTestCase {
    func testQuantiseDequantiseRoundTrip() throws {
        let x = try Tensor(shape: [6], float32: [-1, -0.5, 0, 0.25, 0.5, 2])
        let parameters = try QuantizationParameters.fitting(minimum: -1, maximum: 2, to: .uint8)
        XCTAssertEqual(parameters.scale, 3 / 255, accuracy: 1e-9)
        XCTAssertEqual(parameters.zeroPoint, 85)
        let q = try x.quantized(with: parameters, to: .uint8)
        // numpy.clip(numpy.round(x / scale) + 85, 0, 255) with float32 x and scale
        XCTAssertEqual(q.storage, .uint8([0, 43, 85, 106, 127, 255]))
        let back = q.dequantized(with: parameters).floats
        for (a, b) in zip(back, x.floats) { XCTAssertEqual(a, b, accuracy: parameters.scale / 2 + 1e-6) }
        // int8 with PyTorch-style parameters; out-of-range values saturate.
        let int8 = try x.quantized(with: QuantizationParameters(scale: 0.01, zeroPoint: 0), to: .int8)
        XCTAssertEqual(int8.storage, .int8([-100, -50, 0, 25, 50, 127]))
        XCTAssertThrowsError(try x.quantized(with: parameters, to: .int32))
        XCTAssertThrowsError(try q.quantized(with: parameters, to: .uint8))
    }
}

final class TensorDescriptionTests: XCTestCase {
    func testSmallTensorPrintsEveryValue() throws {
        let t = try Tensor(shape: [2, 3], float32: [0, 0.5, 1, 1.25, -2, 3.14159])
        XCTAssertEqual(t.description, """
            tensor([[0., 0.5, 1.],
                    [1.25, -2., 3.1416]], shape=[2, 3], dtype=float32)
            """)
    }

    func testLargeTensorIsTruncatedLikeNumPy() throws {
        let t = try Tensor(shape: [1, 3, 224, 224], storage: .uint8(Array(repeating: 7, count: 3 * 224 * 224)), layout: .nchw)
        let text = t.description
        XCTAssertTrue(text.contains("..."))
        XCTAssertTrue(text.hasSuffix("shape=[1, 3, 224, 224], dtype=uint8, layout=NCHW)"), text)
        XCTAssertLessThan(text.count, 2000)
        XCTAssertEqual(t.mimeBundle.data["text/plain"], text)
    }
}
