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

/// The fallback's members while SourceKit-LSP is not ready (issue 47): a notebook value's
/// type read from the code that declared it, and the order members are offered in.
@Suite struct FallbackMemberTests {
    static func symbol(_ title: String, _ kind: String, _ declaration: String) -> LibraryAPI.Symbol {
        LibraryAPI.Symbol(title: title, kind: kind, declaration: declaration, documentation: "")
    }

    /// A slice of the real index's declarations (`benchbook-completion-index.json`).
    static let api = LibraryAPI(index: LibraryAPI.Index(
        topLevel: [symbol("Model", "class", "class Model"), symbol("Image", "struct", "struct Image"),
                   symbol("loadPhoto(_:)", "function", "func loadPhoto(_ name: String) throws -> Image")],
        members: [
            "Model": [
                symbol("classify(_:preprocessing:labels:)", "method",
                       "func classify(_ image: Image, preprocessing: Preprocessing? = nil, labels: [String]? = nil) throws -> Prediction"),
                symbol("inputs", "variable", "var inputs: [TensorDescription] { get }"),
                symbol("init(contentsOf:options:)", "constructor", "init(contentsOf path: String, options: ModelOptions = ModelOptions()) throws(ModelError)"),
                symbol("supportedQuantizedEngines", "variable", "static var supportedQuantizedEngines: [String] { get }"),
                symbol("threads", "variable", "var threads: Int { get }"),
            ],
            "Image": [
                symbol("resized(width:height:filter:reducingGap:)", "method",
                       "func resized(width newWidth: Int, height newHeight: Int, filter: ResizeFilter = .bilinear) throws(ImageError) -> Image"),
                symbol("!=(_:_:)", "function", "static func != (lhs: Self, rhs: Self) -> Bool"),
                symbol("width", "variable", "let width: Int"),
                symbol("map(_:)", "method", "func map(_ transform: (Float) -> Float) -> Tensor"),
            ],
            "Tensor": [
                symbol("softmax(alongAxis:)", "method", "func softmax(alongAxis axis: Int = -1) throws(TensorError) -> Tensor"),
                symbol("Storage", "enum", "enum Storage"),
                symbol("argmax()", "method", "func argmax() -> Int?"),
                symbol("zeros(shape:)", "method", "static func zeros(shape: [Int]) -> Tensor"),
                symbol("+(_:_:)", "function", "static func + (lhs: Tensor, rhs: Tensor) throws(TensorError) -> Tensor"),
                symbol("init(shape:float32:)", "constructor", "init(shape: [Int], float32: [Float]) throws(TensorError)"),
                symbol("shape", "variable", "var shape: [Int] { get }"),
            ],
            "Int": [symbol("bitWidth", "variable", "var bitWidth: Int { get }")],
        ]))

    func receiver(_ expression: String, _ declarations: [String: String] = [:]) -> ReceiverTypes.Receiver? {
        ReceiverTypes(api: Self.api, declarations: declarations).receiver(expression)
    }

    @Test func aVariableMadeByATypesInitialiserHasThatType() {
        #expect(receiver("classifier", ["classifier": "let classifier = try Model(contentsOf: \"models/a.pte\")"]) == .value("Model"))
        #expect(receiver("m", ["m": "var m: Model"]) == .value("Model"))
        #expect(receiver("m", ["m": "let m: Model? = nil"]) == .value("Model"))
        #expect(receiver("n", ["n": "let n = 48"]) == .value("Int"))
        #expect(receiver("Tensor") == .typeName("Tensor"))
    }

    @Test func chainsFollowResultTypesThroughVariablesAndMembers() {
        let declarations = [
            "photo": "let photo = try loadPhoto(\"bag.jpg\")",
            "small": "var small = try photo\n    .resized(width: 8, height: 8)   // smaller",
            "count": "let count = classifier.inputs",
            "classifier": "let classifier = try Model(contentsOf: path)",
        ]
        #expect(receiver("photo", declarations) == .value("Image"))
        #expect(receiver("small", declarations) == .value("Image"))
        #expect(receiver("photo.resized(width: 2, height: 2)", declarations) == .value("Image"))
        #expect(receiver("classifier.threads", declarations) == .value("Int"))
        #expect(receiver("count", declarations) == .value("[TensorDescription]"))
        // Notebook 01: `var models: [Model] = []`, then `let classifier = models[1]`.
        let notebook = ["models": "var models: [Model] = []", "classifier": "let classifier = models[1]          // PyTorch Lite"]
        #expect(receiver("classifier", notebook) == .value("Model"))
        #expect(receiver("models", notebook) == .value("[Model]"))
        #expect(receiver("Tensor.zeros(shape: [2])", declarations) == .value("Tensor"))
    }

    @Test func whatCannotBeReadIsUnknown() {
        #expect(receiver("x", ["x": "let x = a + b"]) == nil)
        #expect(receiver("y", ["y": "let y = photo.map { $0 }"]) == nil)
        #expect(receiver("loop", ["loop": "let loop = loop2", "loop2": "let loop2 = loop"]) == nil)
        #expect(receiver("nowhere") == nil)
    }

    @Test func theReceiverIsTheExpressionBeforeTheDot() {
        let code = "print(try photo.resized(width: f(2), height: 2).width)\nlet a = classifier."
        #expect(ReceiverTypes.expression(before: code.unicodeScalars.count - 1, in: code) == "classifier")
        let chain = "x = photo.resized(width: f(2), height: 2)."
        #expect(ReceiverTypes.expression(before: chain.unicodeScalars.count - 1, in: chain) == "photo.resized(width: f(2), height: 2)")
    }

    @Test func aValueListsItsInstanceMembersOnly() {
        let names = CodeCompletion.members(of: .value("Model"), in: Self.api).map(\.baseName)
        #expect(names == ["classify", "inputs", "threads"])
        #expect(CodeCompletion.members(of: .value("Image"), in: Self.api).map(\.baseName) == ["map", "resized", "width"])
    }

    @Test func aTypeNameListsInitialisersStaticMembersAndNestedTypesFirst() {
        let names = CodeCompletion.members(of: .typeName("Tensor"), in: Self.api).map(\.baseName)
        #expect(names == ["init", "zeros", "Storage", "argmax", "shape", "softmax"])
    }
}
