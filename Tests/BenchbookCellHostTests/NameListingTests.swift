@testable import BenchbookCellHost
import Testing

/// The library's half of `%who`/`%whos`: type names, one-line values, the two layouts.
@Suite struct NameListingTests {
    @Test func typeNamesGetSwiftsSugar() {
        #expect(TypeNames.sugared("Array<Int>") == "[Int]")
        #expect(TypeNames.sugared("Dictionary<String, Array<Optional<Float>>>") == "[String: [Float?]]")
        #expect(TypeNames.sugared("Optional<(Int) -> Int>") == "((Int) -> Int)?")
        #expect(TypeNames.sugared("Array<(file: String, shows: String)>") == "[(file: String, shows: String)]")
        #expect(TypeNames.sugared("MyArray<Int>") == "MyArray<Int>", "only the standard library's names")
        #expect(TypeNames.userFacing("Cell3.Point") == "Point")
    }

    @Test func valuesBecomeOneLineAndContainersKeepTheirCount() {
        #expect(ValueSummary.of("two\nlines").text == "\"two\\nlines\"", "a string shows as a cell's result does")
        #expect(ValueSummary.of(Array(0..<100)) == ("[0, 1, 2, 3, 4, 5, 6, 7, …]", 100))
        #expect(ValueSummary.of(["b": 2]) == ("[\"b\": 2]", 1))
        #expect(ValueSummary.of([String: Int]()) == ("[:]", 0))
        #expect(ValueSummary.of(Optional<Int>.none) == ("nil", nil))
        struct Multiline: CustomStringConvertible { var description: String { "first\n   second\n" } }
        #expect(ValueSummary.of(Multiline()).text == "first second ")
        #expect(TextLine.truncated(String(repeating: "x", count: 80), to: 10) == "xxxxxxxxx…")
    }

    @Test func whoWritesOneLinePerNameAndWhosATable() {
        let entries = [
            _BenchbookCell.ListedName.value("threshold", cell: "In[4]", 48),
            .value("anything", cell: "In[2]", 3.5 as Any),
            .value("files", cell: "In[1]", ["a.jpg", "b.jpg"]),
            .declaration("explorerRecipe", kind: "func", cell: "In[5]"),
            .lost("model", cell: "In[3]"),
        ].map { NameTable.Entry(listed: $0, described: $0.describe()) }
        #expect(entries.map(NameTable.line) == [
            "threshold: Int = 48", "anything: Any = 3.5", "files: [String] = [\"a.jpg\", \"b.jpg\"]",
            "func explorerRecipe", "model: lost when the cell host restarted: re-run In[3]",
        ])
        #expect(NameTable.rows(entries) == [
            "Name            Type                  Cell   Data/Info",
            "--------------  --------------------  -----  ---------",
            "threshold       Int                   In[4]  48",
            "anything        Any (holding Double)  In[2]  3.5",
            "files           [String]              In[1]  2 elements: [\"a.jpg\", \"b.jpg\"]",
            "explorerRecipe  func                  In[5]",
            "model           ?                     In[3]  lost when the cell host restarted: re-run In[3]",
        ])
    }

    @Test func aFilterMatchesTypesAndKinds() {
        let double = _BenchbookCell.ListedName.value("x", cell: "In[1]", [1.5])
        #expect(double.matches.isSuperset(of: ["[Double]", "Array<Double>", "var"]))
        #expect(_BenchbookCell.ListedName.declaration("f", kind: "func", cell: "In[1]").matches == ["func"])
    }
}

/// Values whose default description is huge are described with a bound on the work.
@Suite struct ValueSummaryTests {
    struct Dataset { var name = "test"; var pixels = [UInt8](repeating: 7, count: 5_000_000); var labels: [Int] = [9, 2] }
    struct Point { var x = 1, y = 2 }
    enum Shape { case dot, circle(radius: Double), box(Point) }
    final class Holder { var dataset = Dataset() }

    @Test func aLargeStructIsDescribedFromItsFirstElementsQuickly() {
        let started = ContinuousClock.now
        let summary = ValueSummary.of(Dataset())
        #expect(ContinuousClock.now - started < .seconds(1), "Swift's default description takes seconds here")
        #expect(summary.text == "Dataset(name: \"test\", pixels: [7, 7, 7, 7, 7, 7, 7, 7, …], labels: [9, 2])")
        #expect(summary.count == nil)
        #expect(ValueSummary.of([Dataset(), Dataset()]).text.count <= ValueSummary.characterBudget + 1)
    }

    @Test func defaultDescriptionsKeepSwiftsShape() {
        #expect(ValueSummary.of(Point()).text == "Point(x: 1, y: 2)")
        #expect(ValueSummary.of((1, "a")).text == "(1, \"a\")")
        #expect(ValueSummary.of((a: 1, b: 2.5)).text == "(a: 1, b: 2.5)")
        #expect(ValueSummary.of(Shape.circle(radius: 2)).text == "Shape.circle(radius: 2.0)")
        #expect(ValueSummary.of(Shape.box(Point())).text == "Shape.box(Point(x: 1, y: 2))")
        #expect(ValueSummary.of(Shape.dot).text.hasSuffix("Shape.dot"))
        #expect(ValueSummary.of(Optional(3)).text == "3", "the type column says Int?")
        #expect(ValueSummary.of(Holder()).text.hasSuffix("Holder"), "a class shows its name, as Swift's default does")
        #expect(ValueSummary.of([[1, 2], [3]]).text == "[[1, 2], [3]]")
    }
}
