import BenchbookBenchmark
import Foundation
import Testing
@testable import BenchbookCharts

/// Labels never cut so that two look alike; log axes when values span 100x; histograms count.
@Suite struct LabelAndAxisTests {
    static let longLabels = ["efficientnet_lite0.ptl · 2 threads", "efficientnet_lite0_int8.ptl · 2 threads",
                             "efficientnet_lite0_noprepack.ptl · 2 threads", "efficientnet_lite0.ptl · 1 thread"]

    @Test func fittedLabelsStayDistinct() throws {
        let canvas = try CairoCanvas(width: 200, height: 100, scale: 1)
        for width in [60.0, 90.0, 120.0, 400.0] {
            let fitted = canvas.fittingDistinct(Self.longLabels, size: 11, maximumWidth: width)
            #expect(Set(fitted).count == Self.longLabels.count, "labels collide at width \(width): \(fitted)")
            for text in fitted { #expect(canvas.textWidth(text, size: 11) <= width + 0.5) }
        }
        // Labels that fit are not touched.
        #expect(canvas.fittingDistinct(["a", "b"], size: 11, maximumWidth: 100) == ["a", "b"])
        // Identical labels stay identical (they are the same thing).
        #expect(canvas.fittingDistinct(["same", "same"], size: 11, maximumWidth: 100) == ["same", "same"])
    }

    @Test func middleShorteningKeepsBothEnds() throws {
        let canvas = try CairoCanvas(width: 200, height: 100, scale: 1)
        let text = canvas.middleFitting("efficientnet_lite0_int8.tflite · 2 threads", size: 11, maximumWidth: 150)
        #expect(text.hasPrefix("eff"))
        #expect(text.hasSuffix("threads"))
        #expect(text.contains("…"))
    }

    @Test func wrappingUsesTwoLines() throws {
        let canvas = try CairoCanvas(width: 200, height: 100, scale: 1)
        let lines = canvas.wrapped("iPhone 12 (A14) · Core ML delegate", size: 12, maximumWidth: 120, lines: 2)
        #expect(lines.count == 2)
        #expect(lines.joined(separator: " ").hasPrefix("iPhone 12"))
    }

    @Test func axisIsLogarithmicWhenValuesSpanAHundredfold() {
        #expect(AxisScale.automatic.resolved(for: [1, 150]) == .logarithmic)
        #expect(AxisScale.automatic.resolved(for: [1, 99]) == .linear)
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
