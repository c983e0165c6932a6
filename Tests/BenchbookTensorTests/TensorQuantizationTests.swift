import XCTest
@testable import BenchbookTensor

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
