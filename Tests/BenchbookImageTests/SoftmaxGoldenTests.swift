import BenchbookTensor
import XCTest

/// Softmax, log-softmax and top-k against NumPy, including logits of ±1e4.
final class SoftmaxGoldenTests: XCTestCase {
    func testSoftmaxLogSoftmaxAndTopKMatchNumPy() throws {
        let goldens = try Goldens.load()
        let cases = goldens.cases(kind: "softmax")
        XCTAssertEqual(cases.count, 5)
        for testCase in cases {
            let name = testCase["name"] as! String
            let shape = testCase["shape"] as! [Int]
            let logits = try Tensor(shape: shape, float32: try goldens.floats(testCase["logits"] as! String))
            let softmax = try logits.softmax()
            let expected = try goldens.floats(testCase["softmax"] as! String)
            for (a, e) in zip(softmax.floats, expected) {
                XCTAssertEqual(a, e, accuracy: 1e-6 + 1e-5 * abs(e), name)
                XCTAssertFalse(a.isNaN, name)
            }
            let logSoftmax = try logits.logSoftmax().floats
            for (a, e) in zip(logSoftmax, try goldens.floats(testCase["logSoftmax"] as! String)) {
                XCTAssertEqual(a, e, accuracy: 1e-4 + 1e-6 * abs(e), name)
            }
            let k = testCase["k"] as! Int
            let top = try softmax.topK(k, alongAxis: -1)
            let expectedIndices = testCase["topIndices"] as? [[Int]] ?? [testCase["topIndices"] as! [Int]]
            let actualIndices = top.indices.floats.map { Int($0) }
            XCTAssertEqual(actualIndices, expectedIndices.flatMap { $0 }, name)
            if shape.count == 1 {
                XCTAssertEqual(try softmax.topK(k).map(\.index), expectedIndices[0], name)
            }
        }
    }
}
