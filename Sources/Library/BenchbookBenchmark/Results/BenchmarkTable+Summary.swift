/// A table's figures without the run times behind them, for records that keep what was
/// measured but not every sample (a benchmark of many interleaved rounds holds tens of
/// thousands of run times per row).
extension BenchmarkTable {
    /// The rows of a table as its CSV columns (``BenchmarkTable/columns``), as text.
    public struct Summary: Sendable, Equatable, Codable {
        /// The table's title.
        public var title: String
        /// The column names, ``BenchmarkTable/columns``.
        public var columns: [String]
        /// One row per result, in the table's order, each matching ``columns``.
        public var rows: [[String]]
    }

    /// The table's rows as they appear in its CSV, without the samples.
    public var summary: Summary {
        Summary(title: title, columns: Self.columns, rows: results.map(cells))
    }
}
