@testable import BenchbookBenchmark
import Testing

/// Counts with thousands separators, as run counts and IPython's loop counts are shown.
@Suite struct CountFormatTests {
    @Test(arguments: [
        (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (100_000, "100,000"), (11_300_000, "11,300,000"),
        (-999, "-999"), (-1000, "-1,000"), (-1_234_567, "-1,234,567"),
        (Int.min, "-9,223,372,036,854,775,808"),
    ])
    func groupsDigitsInThrees(value: Int, text: String) {
        #expect(CountFormat.string(value) == text)
    }
}
