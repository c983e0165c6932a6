import BenchbookBenchmark
import Foundation
import Testing
@testable import BenchbookCharts

/// Labels broken into lines, never cut; log axes when values span 10x; histograms count.
@Suite struct LabelAndAxisTests {
    @Test func longWordsBreakAfterPunctuationAndWrappingUsesSeveralLines() throws {
        let canvas = try CairoCanvas(width: 200, height: 100, scale: 1)
        let lines = canvas.lines("iPhone 12 (A14) · Core ML delegate", size: 12, maximumWidth: 120)
        #expect(lines.count == 2)
        #expect(lines.joined(separator: " ") == "iPhone 12 (A14) · Core ML delegate")
        let file = canvas.lines("efficientnet_lite0_noprepack.ptl", size: 11, maximumWidth: 90)
        #expect(file.count >= 2)
        #expect(file.joined() == "efficientnet_lite0_noprepack.ptl")
        #expect(file[0].hasSuffix("_"), "breaks after an underscore: \(file)")
        // Text that fits stays on one line.
        #expect(canvas.lines("a b", size: 11, maximumWidth: 100) == ["a b"])
    }

    @Test func axisIsLogarithmicWhenValuesSpanTenfold() {
        #expect(AxisScale.automatic.resolved(for: [1, 15]) == .logarithmic)
        #expect(AxisScale.automatic.resolved(for: [1, 9.9]) == .linear)
        #expect(AxisScale.automatic.resolved(for: [0, 500]) == .linear, "zero cannot go on a log axis")
        #expect(AxisScale.linear.resolved(for: [1, 1000]) == .linear)
        let chart = LatencyChart(series: [.init(label: "fast", samples: [0.001, 0.0011, 0.0012]),
                                          .init(label: "slow", samples: [0.4, 0.41, 0.42])])
        #expect(chart.resolvedAxis == .logarithmic)
        let (bounds, ticks) = LogScale.ticks(0.9, 420)
        #expect(bounds.0 == 0.1 && bounds.1 == 1000)
        #expect(ticks.contains(1) && ticks.contains(100) && ticks.contains(1000))
    }

    @Test func histogramCountsEveryValueOnce() throws {
        let values: [Double] = [0, 0.05, 0.1, 0.5, 0.99, 1.0, -0.2, 1.7]
        let histogram = Histogram(values: values, bins: 10, range: 0...1)
        #expect(histogram.counts.reduce(0, +) == 6)
        #expect(histogram.counts[0] == 2 && histogram.counts[1] == 1 && histogram.counts[5] == 1 && histogram.counts[9] == 2)
        #expect(histogram.below == 1 && histogram.above == 1)
        #expect(histogram.textSummary.contains("1 below and 1 above"))
        _ = try histogram.pngData(scale: 1)
    }

    @Test func barChartRejectsMismatchedData() {
        #expect(throws: ChartError.invalidData("3 values but 2 labels")) {
            try BarChart(values: [1.0, 2, 3], labels: ["a", "b"], title: "t").pngData(scale: 1)
        }
        #expect(BarChart(values: [0.5], labels: ["a"], title: "t", format: .percent).textSummary == "t\na: 50.0 %")
    }
}
