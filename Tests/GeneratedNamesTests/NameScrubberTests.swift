import GeneratedNames
import Testing

/// Generated names never reach the user, whether a text comes whole or in pieces.
@Suite struct NameScrubberTests {
    @Test func generatedNamesNeverReachTheUser() {
        #expect(NameScrubber.userFacing("Cell12/In[3]:2: Fatal error: Cell12.Point is bad") == "In[3]:2: Fatal error: Point is bad")
        #expect(NameScrubber.userFacing("cannot use total in __benchbook_entry()") == "cannot use total in the cell")
        #expect(NameScrubber.userFacing("_BenchbookCell.evaluate threw") == "the cell threw")
        #expect(NameScrubber.userFacing("MyCell3.x and Cells") == "MyCell3.x and Cells")
        #expect(RuntimeNames.entrySymbol(module: RuntimeNames.module(4)) == "benchbook_cell4_main")
    }

    /// The rules as regular expressions, the form they had before the streaming scrubber:
    /// the reference for texts where whole words and regex matches coincide.
    static func byRegex(_ text: String) -> String {
        text.replacing(/\bCell[0-9]+[\/.]/, with: "")
            .replacing(/__benchbook_entry\(\)/, with: "the cell")
            .replacing(/_BenchbookCell\.[A-Za-z]+/, with: "the cell")
    }

    static let texts = [
        "Cell12/In[3]:2: Fatal error: Cell12.Point is bad",
        "cannot use total in __benchbook_entry()",
        "_BenchbookCell.evaluate threw",
        "MyCell3.x and Cells and Cell and Cell4 and Cell5x.y",
        "Cell3.Cell4.x, (Cell7.Foo), [Cell8/In[1]]",
        "__benchbook_entry( without a close, __benchbook_entry, _BenchbookCell, _BenchbookCell.2",
        "_BenchbookCell.run(cell:body:) and _BenchbookCell.evaluate2",
        "Computing… Célula Cell9.Größe __bb_scope_ __bb_value_77",
        "",
        "no names at all\n",
        "Cell1.",
        "ends with __bb_value_3",
        "ends with _BenchbookCell.stopIfInterrupted",
    ]

    @Test(arguments: texts)
    func wholeTextsReadAsTheRulesSay(_ text: String) {
        #expect(NameScrubber.userFacing(text) == Self.byRegex(text))
    }

    /// Cut at every place, a text reads the same as whole.
    @Test(arguments: texts)
    func piecesReadAsTheWholeText(_ text: String) {
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            var stream = NameScrubbingStream()
            var out: [UInt8] = []
            stream.scrub(bytes[..<cut], into: &out)
            stream.scrub(bytes[cut...], into: &out)
            stream.finish(into: &out)
            #expect(String(decoding: out, as: UTF8.self) == NameScrubber.userFacing(text), "cut at \(cut)")
        }
    }

    @Test func onlyAWordThatCanStillBecomeAGeneratedNameIsHeld() {
        var stream = NameScrubbingStream()
        var out: [UInt8] = []
        stream.scrub(Array("Computing Cel".utf8)[...], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "Computing ")
        stream.scrub(Array("lo ".utf8)[...], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "Computing Cello ")
        let long = String(repeating: "C", count: 1) + String(repeating: "e", count: 10_000)
        out.removeAll()
        stream.scrub(Array(long.utf8)[...], into: &out)
        #expect(out.count == long.utf8.count, "a long word passes on at once")
    }

    /// The storage rules of compiler messages as the regular expressions they were written
    /// as before ``RuntimeNames`` built them: the reference for ``NameScrubber/compilerMessage(_:)``.
    static func compilerMessageByRegex(_ text: String) -> String {
        NameScrubber.userFacing(text)
            .replacing(/__bb_scope_\w+(\.result(\.[0-9]+)?)?/, with: "value")
            .replacing(/__bb_unset_\w+(\.value)?/, with: "value")
            .replacing(/_BenchbookScope<(.*)>/) { String($0.1) }
    }

    @Test(arguments: texts + [
        "In[3]:2:9: error: cannot use __bb_scope_total.result.1 in __benchbook_entry()",
        "In[3]:3:1: error: type of __bb_unset_names.value is _BenchbookScope<[Int]>",
        "__bb_scope_v.result and __bb_scope_v and __bb_unset_x, __bb_timed, __bb_other_1",
        "_BenchbookScope<(Int, String)> in Cell4.f and _BenchbookScope without brackets",
    ])
    func compilerMessagesReadAsTheStorageRulesSay(_ text: String) {
        #expect(NameScrubber.compilerMessage(text) == Self.compilerMessageByRegex(text))
    }

    @Test func theStorageRulesAreBuiltFromRuntimeNames() {
        let message = "\(RuntimeNames.scopePrefix)total.\(RuntimeNames.scopeResult).1 and "
            + "\(RuntimeNames.unsetPrefix)names.\(RuntimeNames.unsetValue): \(RuntimeNames.scopeType)<[Int]>"
        #expect(NameScrubber.compilerMessage(message) == "value and value: [Int]")
    }
}
