@testable import CellCompletion
import CellEngine
import EngineTestSupport
import XCTest

final class CompletionDocumentTests: XCTestCase {
    func testCellOffsetsMapToUTF16PositionsAfterTheImports() {
        let document = CompletionDocument(imports: ["import Benchbook", "@testable import var Cell1.x"],
                                          cell: "let é😀 = 1\né😀.bit")
        XCTAssertEqual(document.text, "import Benchbook\n@testable import var Cell1.x\nlet é😀 = 1\né😀.bit\n")
        // "é😀" is 2 code points and 3 UTF-16 units.
        XCTAssertEqual(document.position(ofCellOffset: 0).line, 2)
        XCTAssertEqual(document.position(ofCellOffset: 6).character, 7)
        let end = document.position(ofCellOffset: 17)
        XCTAssertEqual(end.line, 3)
        XCTAssertEqual(end.character, 7)
        XCTAssertEqual(document.cellOffset(line: 3, character: 7), 17)
        XCTAssertEqual(document.cellOffset(line: 3, character: 3), 13)
        XCTAssertNil(document.cellOffset(line: 1, character: 0))
    }

    func testMagicLineIsCommentedOutWithPositionsKept() {
        let document = CompletionDocument(imports: [], cell: "%timeit\nx.")
        XCTAssertEqual(document.text, "//%timeit\nx.\n")
        XCTAssertEqual(document.position(ofCellOffset: 3).character, 5)
        XCTAssertEqual(document.cellOffset(line: 0, character: 5), 3)
        XCTAssertEqual(document.position(ofCellOffset: 10).line, 1)
    }

    func testPaddingLineShiftsPositionsAndTypingOnIsRecognised() {
        let document = CompletionDocument(imports: ["import Benchbook"], cell: "t.", padded: true)
        XCTAssertEqual(document.text, "\nimport Benchbook\nt.\n")
        XCTAssertEqual(document.position(ofCellOffset: 2).line, 2)
        XCTAssertEqual(document.cellOffset(line: 2, character: 2), 2)
        XCTAssertTrue(CursorScan.continues("t.sh", cursor: 4, previous: "t.", previousCursor: 2))
        XCTAssertTrue(CursorScan.continues("f(t.sh)", cursor: 6, previous: "f(t.)", previousCursor: 4))
        XCTAssertFalse(CursorScan.continues("Later1(", cursor: 7, previous: "later1.round", previousCursor: 12))
        XCTAssertFalse(CursorScan.continues("t.(", cursor: 3, previous: "t.", previousCursor: 2))
        XCTAssertFalse(CursorScan.continues("u.sh", cursor: 4, previous: "t.", previousCursor: 2))
    }

    func testInspectedIdentifierUnderCursorOrAroundCall() {
        func name(_ code: String, _ cursor: Int) -> String? {
            CursorScan.inspectedIdentifier(in: code, cursor: cursor).map { CursorScan.text(of: $0, in: code) }
        }
        XCTAssertEqual(name("clearOutput(", 12), "clearOutput")
        XCTAssertEqual(name("t.softmax(alongAxis: 0)", 5), "softmax")
        XCTAssertEqual(name("normalize(image, with: [1, 2], ", 31), "normalize")
        XCTAssertEqual(name("f(g(1), ", 8), "f")
        XCTAssertEqual(name("learningRate", 12), "learningRate")
        XCTAssertNil(name("   ", 3))
        XCTAssertEqual(CursorScan.identifierStart(in: "print(learn", cursor: 11), 6)
    }
}

final class LanguageServerWireTests: XCTestCase {
    func testFramesAreSplitByContentLength() {
        let body = #"{"id":"bb-1","result":null}"#
        let bytes = Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)Content-Length: 2\r\n\r\n{".utf8)
        let frame = LSPConnection.frame(in: bytes)
        XCTAssertEqual(frame.map { String(decoding: $0.body, as: UTF8.self) }, body)
        XCTAssertNil(LSPConnection.frame(in: Array(bytes[frame!.used...])), "an incomplete body waits for more bytes")
    }

    func testHoverMarkdownBecomesPlainTextWithoutFences() throws {
        let hover: JSONValue = ["contents": ["kind": "markdown", "value": "```swift\nfunc f(x: Int)\n```\n\nDoes f."]]
        let inspection = try XCTUnwrap(CodeCompletion.inspection(fromHover: hover))
        XCTAssertEqual(inspection.plainText, "func f(x: Int)\n\nDoes f.")
        XCTAssertTrue(inspection.markdown.hasPrefix("```swift\n"))
        XCTAssertNil(CodeCompletion.inspection(fromHover: .null))
        XCTAssertNil(CodeCompletion.inspection(fromHover: ["contents": ["kind": "markdown", "value": ""]]))
    }

    func testCompletionItemsOfTheNameBecomeAnInspection() throws {
        let items: JSONValue = ["items": [
            ["label": "advanced(by: Int)", "filterText": "advanced(by:)", "kind": 2, "detail": "Int",
             "documentation": ["kind": "markdown", "value": "Returns an offset value."]],
            ["label": "advance", "kind": 2, "detail": "Void"],
        ]]
        let inspection = try XCTUnwrap(CodeCompletion.inspection(fromCompletion: items, name: "advanced"))
        XCTAssertEqual(inspection.plainText, "advanced(by: Int) -> Int\n\nReturns an offset value.")
        XCTAssertNil(CodeCompletion.inspection(fromCompletion: items, name: "other"))
    }

    func testKindsAndSignatures() {
        XCTAssertEqual(CodeCompletion.kind(10), "property")
        XCTAssertEqual(CodeCompletion.kind(3), "function")
        XCTAssertEqual(CodeCompletion.kind(99), "text")
        XCTAssertEqual(CodeCompletion.signature(label: "shape", detail: "[Int]", type: "property"), "shape: [Int]")
        XCTAssertEqual(CodeCompletion.signature(label: "reshaped(to: [Int]) throws", detail: "Tensor", type: "method"),
                       "reshaped(to: [Int]) throws -> Tensor")
        XCTAssertEqual(CodeCompletion.signature(label: "if", detail: "", type: "keyword"), "if")
    }

    func testMissingServerFailsWithAnExplanation() {
        XCTAssertThrowsError(try LSPConnection(executable: URL(fileURLWithPath: "/nonexistent/sourcekit-lsp"))) { error in
            XCTAssertTrue(String(describing: error).contains("BENCHBOOK_SOURCEKIT_LSP"))
        }
    }
}

final class EngineCompletionTests: XCTestCase {
    func testEarlierCellsAndTheLibraryComplete() throws {
        let engine = try makeEngine()
        defer { engine.shutdown() }
        let output = RecordingOutput()
        XCTAssertNil(engine.execute("let t = try Tensor(shape: [2], float32: [1, 2])", label: "In[1]", output: output))
        XCTAssertNil(engine.execute("struct Sample { var width: Int }", label: "In[2]", output: output))
        let completion = CodeCompletion(engine: engine)
        let context = engine.completionContext()
        XCTAssertEqual(context.imports.first, "import Benchbook")
        XCTAssertTrue(context.imports.contains("@testable import var Cell1.t"))
        XCTAssertTrue(context.imports.contains("@testable import struct Cell2.Sample"))
        XCTAssertEqual(context.names.map(\.name), ["Sample", "t"])

        // The first request starts SourceKit-LSP on a thread of its own and is answered at
        // once from the fallback; ask again, as a student presses Tab again, until it answers.
        var list = completion.complete(code: "t.", cursor: 2)
        let deadline = Date().addingTimeInterval(60)
        while list.source != .languageServer, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.25)
            list = completion.complete(code: "t.", cursor: 2)
        }
        guard list.source == .languageServer else { try skipOrFail("sourcekit-lsp did not answer: \(list)") }
        XCTAssertTrue(list.matches.contains { $0.text == "shape" && $0.type == "property" })
        XCTAssertEqual(list.cursorStart, 2)
        let sample = completion.complete(code: "Sample(width: 1).wi", cursor: 19)
        XCTAssertEqual(sample.matches.map(\.text), ["width"])
        XCTAssertEqual(sample.cursorStart, 17)
        let inspection = try XCTUnwrap(completion.inspect(code: "clearOutput(", cursor: 12))
        XCTAssertTrue(inspection.plainText.contains("Clears the output of the running cell"))
    }
}
