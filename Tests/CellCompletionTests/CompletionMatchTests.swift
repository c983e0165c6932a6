@testable import CellCompletion
import Testing

/// What a completion inserts and where it is listed, and which call Shift-Tab inspects.
@Suite struct CompletionMatchTests {
    func match(_ text: String, _ type: String = "method") -> CompletionMatch {
        CompletionMatch(text: text, type: type, signature: text)
    }

    @Test func overloadsInsertTheirNameAndAParenthesisOnce() {
        let texts = CodeCompletion.insertable([
            match("grayscale()"), match("grayscale(weights: )"), match("count()"), match("width", "property"),
            match("classify(, preprocessing: , labels: )"), match("classify(, labels: )"), match("init(shape: , float32: )", "constructor"),
        ]).map(\.text)
        #expect(texts == ["grayscale(", "count()", "width", "classify(", "init("])
    }

    @Test func argumentLabelsInsertTheFirstLabel() {
        let texts = CodeCompletion.insertable([
            match("contentsOf: ", "constructor"), match("contentsOf: , options: ", "constructor"), match("shape: , float32: ", "constructor"),
        ]).map(\.text)
        #expect(texts == ["contentsOf: ", "shape: "])
    }

    @Test func unappliedInstanceMethodsAndKeywordsComeLast() {
        #expect(CodeCompletion.rank(label: "init(shape: [Int], float32: [Float])", type: "constructor") == 0)
        #expect(CodeCompletion.rank(label: "argmax(self: Tensor)", type: "method") == 1)
        #expect(CodeCompletion.rank(label: "self", type: "keyword") == 2)
    }

    @Test func anArgumentLabelBeingTypedInspectsTheCall() {
        let code = "let m = try Model(contentsOf"
        let call = CursorScan.enclosingCall(in: code, cursor: code.count)
        #expect(call.map { CursorScan.text(of: $0.callee, in: code) } == "Model")
        #expect(call?.parenthesis == 17)
        let label = CursorScan.identifier(in: code, cursor: code.count)!
        #expect(CursorScan.isArgumentStart(label, in: code))
        #expect(!CursorScan.isArgumentStart(CursorScan.identifier(in: "x.count", cursor: 7)!, in: "x.count"))
        #expect(CursorScan.enclosingCall(in: "let values = [1, 2", cursor: 18) == nil, "a collection is not a call")
    }
}
