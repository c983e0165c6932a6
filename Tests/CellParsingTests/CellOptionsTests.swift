import CellSource
import Testing

/// Quarto/MyST option lines and the `%who` magic line: what the kernel takes from a cell's
/// text before it is parsed.
@Suite struct CellOptionsTests {
    @Test func optionLinesAtTheTopAreBlankedKeepingEveryPosition() {
        let cell = "#| label: fig-input\n//| echo: false\n\n  #| caption: \"Größe\"\nlet x = 1 //| not an option\n#| late"
        let blanked = CellOptions.blanked(cell)
        let lines = blanked.split(separator: "\n", omittingEmptySubsequences: false)
        let original = cell.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == original.count)
        #expect(zip(lines, original).allSatisfy { $0.unicodeScalars.count == $1.unicodeScalars.count },
                "every line keeps its length, so columns and cursor offsets do not move")
        #expect(lines[0].allSatisfy { $0 == " " } && lines[1].allSatisfy { $0 == " " } && lines[3].allSatisfy { $0 == " " })
        #expect(lines[4] == "let x = 1 //| not an option")
        #expect(lines[5] == "#| late", "only lines before the first code line are options")
        #expect(CellOptions.lines(in: cell) == ["label: fig-input", "echo: false", "caption: \"Größe\""])
    }

    @Test func cellsWithoutOptionsAreUntouched() {
        for cell in ["let x = 1", "", "\n\n", "print(\"#| not at the top\")", "// a comment\n#| after a comment"] {
            #expect(CellOptions.blanked(cell) == cell)
            #expect(CellOptions.lines(in: cell).isEmpty)
        }
    }

    @Test func aMagicBelowOptionLinesIsStillTheFirstLine() throws {
        let cell = CellOptions.blanked("#| label: timing\n%timeit\nlet s = (0..<10).reduce(0, +)")
        let parsed = try #require(CellMagic.parse(cell))
        #expect(parsed.magic == .success(.timeit))
        #expect(NameListing.parse(CellOptions.blanked("//| echo: false\n%who")) == .success(NameListing(detailed: false)))
    }

    @Test func whoAndWhosTakeTypesAndStandAlone() {
        #expect(NameListing.parse("%who") == .success(NameListing(detailed: false)))
        #expect(NameListing.parse("\n  %whos  \n\n") == .success(NameListing(detailed: true)))
        #expect(NameListing.parse("%who Int  [Float] func") == .success(NameListing(detailed: false, filter: ["Int", "[Float]", "func"])))
        #expect(NameListing.parse("%who\nlet x = 1") == .failure(.notAlone("%who")))
        #expect(NameListing.parse("%whoami") == nil)
        #expect(NameListing.parse("%time 1") == nil)
        #expect(NameListing.parse("let who = 1") == nil)
        #expect(MagicProblem.unknown("%frob").description.contains("%whos"))
    }
}
