import Foundation
import Testing
@testable import BenchbookCharts

/// Which bars carry their value, read from the strings a chart draws.
@Suite struct BarValueTests {
    /// 04's explorer showed Coat 50 % with its value and Sneaker 47 % without: every bar of
    /// 5 % or more carries its value, and no smaller one does (the top bar always does).
    @Test(arguments: [ChartSize(width: 460, height: 260), ChartSize(width: 640, height: 360), ChartSize(width: 300, height: 240)])
    func everyBarOfFivePercentCarriesItsValue(_ size: ChartSize) throws {
        let probabilities = [0.004, 0.002, 0.01, 0.003, 0.005, 0.002, 0.008, 0.47, 0.046, 0.45]
        let chart = ProbabilityChart(probabilities: probabilities, labels: ChartSamples.fashionLabels, size: size)
        let drawn = try TextRecorder.texts(of: chart)
        #expect(drawn.contains("47.0 %") && drawn.contains("45.0 %"), "\(drawn)")
        #expect(!drawn.contains("4.6 %") && !drawn.contains("1.0 %"), "\(drawn)")
        #expect(chart.textSummary.hasSuffix("then Ankle boot 45.0 %"))
        // A flat distribution: no class reaches 5 %, the top one still carries its value.
        let flat = ProbabilityChart(probabilities: [Double](repeating: 1.0 / 40, count: 39) + [1.5 / 40], labels: [])
        let flatTexts = try TextRecorder.texts(of: flat)
        #expect(flatTexts.contains("3.8 %") && !flatTexts.contains("2.5 %"), "\(flatTexts)")
    }

    /// With more than 40 classes the bars are too thin to write on: the top bar is named with
    /// its value and the subtitle lists the other classes of 5 % or more.
    @Test func manyClassesListTheirLikelyOnesInTheSubtitle() throws {
        var probabilities = [Double](repeating: 0.1 / 997, count: 1000)
        probabilities[653] = 0.6
        probabilities[400] = 0.2
        probabilities[12] = 0.1
        let labels = (0..<1000).map { "class \($0)" }
        let drawn = try TextRecorder.texts(of: ProbabilityChart(probabilities: probabilities, labels: labels))
        #expect(drawn.contains("class 653: 60.0 %"))
        #expect(drawn.contains { $0.contains("class 400 (index 400), 20.0 %") && $0.contains("class 12 (index 12), 10.0 %") })
    }
}
