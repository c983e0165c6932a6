import XCTest
@testable import BenchbookTensor

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
        let html = try XCTUnwrap(t.mimeBundle.data["text/html"])
        XCTAssertTrue(html.hasPrefix("<div><b>uint8</b> tensor, shape [1, 3, 224, 224], NCHW</div><pre>"), html)
    }

    func testSmallTensorShowsAsAnHTMLTable() throws {
        let probabilities = try Tensor(shape: [1, 3], float32: [0.25, 0.5, 0.25])
        let html = try XCTUnwrap(probabilities.mimeBundle.data["text/html"])
        XCTAssertEqual(html, "<table><caption><b>float32</b> tensor, shape [1, 3]</caption>"
                       + "<tr><td>0.25</td><td>0.5</td><td>0.25</td></tr></table>")
    }
}
