import BenchbookCharts
import BenchbookRuntime
import Foundation
import Testing

@Suite struct ChartBehaviourTests {
    @Test func displaysAsPNGAtPointSize() throws {
        let chart = TopKChart(probabilities: ChartSamples.probabilities, labels: ChartSamples.fashionLabels, k: 3)
        let bundle = chart.mimeBundle
        let base64 = try #require(bundle.data["image/png"])
        let png = try #require(Data(base64Encoded: base64))
        let image = try ChartImage(pngData: png)
        // Drawn at 2× and shown at the point size.
        #expect(image.width == Int(chart.size.width) * 2)
        #expect(bundle.imageSize?.width == Int(chart.size.width))
        #expect(bundle.data["text/plain"]?.contains("1. Coat") == true)
    }

    @Test func topClassIsHighlighted() throws {
        let chart = ProbabilityChart(probabilities: [0.1, 0.7, 0.2], labels: ["a", "b", "c"],
                                     size: ChartSize(width: 300, height: 240))
        let image = try chart.image()
        var orange = 0, blue = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                if p.red == 0xF5 && p.green == 0x85 && p.blue == 0x18 { orange += 1 }
                if p.red == 0x4C && p.green == 0x78 && p.blue == 0xA8 { blue += 1 }
            }
        }
        // One highlighted bar (b, the tallest) and two plain ones; b is taller than a and c together.
        #expect(orange > blue)
        #expect(blue > 0)
    }

    @Test func imageGridDrawsThePixels() throws {
        let white = try ChartImage(width: 4, height: 4, gray: [UInt8](repeating: 255, count: 16))
        let red = try ChartImage(width: 4, height: 4, rgb: [UInt8](repeating: 0, count: 48).enumerated().map { $0.offset % 3 == 0 ? 255 : 0 })
        let grid = ImageGrid([.init(image: red, prediction: "red"), .init(image: white, prediction: "white")],
                             columns: 2, cellSize: 60)
        let image = try grid.image()
        var pureRed = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                if p.red == 255 && p.green == 0 && p.blue == 0 { pureRed += 1 }
            }
        }
        // The 4×4 red image scaled to 60×60 points (nearest neighbour keeps it pure).
        #expect(pureRed >= 55 * 55)
    }

    @Test func pixelBufferLengthIsChecked() {
        #expect(throws: ChartError.invalidPixels(expected: 12, actual: 11)) {
            try ChartImage(width: 2, height: 2, rgb: [UInt8](repeating: 0, count: 11))
        }
    }

    @Test func inconsistentDataIsRejectedWithAdvice() {
        let chart = ProbabilityChart(probabilities: [0.5, 0.5], labels: ["only one"])
        let error = #expect(throws: ChartError.self) { try chart.pngData(scale: 1) }
        #expect(error?.description.contains("Check that every value has a label") == true)
        #expect(chart.mimeBundle.data["image/png"] == nil)
        #expect(throws: ChartError.self) { try HeatMap(values: [1, 2, 3], rows: 2, columns: 2).pngData(scale: 1) }
        #expect(throws: ChartError.self) { try ConfusionMatrixChart(truth: [0, 1], predictions: [0], labels: ["a", "b"]) }
    }

    @Test func confusionMatrixCountsAndAccuracy() throws {
        let chart = try ConfusionMatrixChart(truth: [0, 0, 1, 1, 2], predictions: [0, 1, 1, 1, 0], labels: ["a", "b", "c"])
        #expect(chart.counts == [[1, 1, 0], [0, 2, 0], [1, 0, 0]])
        #expect(abs(chart.accuracy - 0.6) < 1e-12)
        #expect(chart.textSummary.contains("accuracy 60.0 %"))
    }

    @Test func pngRoundTripsThroughDecoder() throws {
        let source = try ChartImage(width: 3, height: 2, rgba: [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
            10, 20, 30, 255, 200, 100, 50, 128, 0, 0, 0, 0,
        ])
        let grid = HeatMap(values: [0, 1, 2, 3], rows: 2, columns: 2, size: ChartSize(width: 200, height: 160))
        let decoded = try ChartImage(pngData: grid.pngData(scale: 1))
        #expect(decoded.width == 200 && decoded.channels == 4)
        #expect(throws: ChartError.self) { try ChartImage(pngData: Data("not a png".utf8)) }
        #expect(source.rgba(x: 1, y: 1).alpha == 128)
    }
}
