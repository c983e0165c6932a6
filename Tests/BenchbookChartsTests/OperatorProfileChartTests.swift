import BenchbookBenchmark
import Foundation
import Testing
@testable import BenchbookCharts

/// What an operator-profile bar says besides its label.
@Suite struct OperatorProfileChartTests {
    /// Calls per run were written "32.0×", which reads as a speed ratio: they say "calls/run",
    /// and only operators carry them (a runtime step is not called by the model).
    @Test func barsSayCallsPerRunNotARatio() throws {
        let profile = ChartSamples.operatorProfile([("Fully Connected (NC, QS8, QC8W) GEMM", "XNNPACK"), ("QUANTIZE", "TFLite kernel"),
                                                    ("aten::_convolution", "aten::mkldnn_convolution")])
        let chart = OperatorProfileChart(profile, grouping: nil)
        for entry in chart.entries {
            let text = chart.valueText(entry)
            #expect(!text.contains("×"), "\(text)")
            #expect(entry.isRuntimeStep ? !text.contains("call") : text.hasSuffix(" · 32 calls/run"), "\(text)")
        }
        #expect(chart.textSummary.contains("QUANTIZE → TFLite kernel: 25.0 % · 500 µs · 32 calls/run"), "\(chart.textSummary)")
        #expect(OperatorProfileChart.callsPerRun(1) == "1 call/run")
        #expect(OperatorProfileChart.callsPerRun(0.5) == "0.50 calls/run")
        #expect(OperatorProfileChart.callsPerRun(16) == "16 calls/run")
        #expect(OperatorProfileChart.callsPerRun(12.5) == "12.5 calls/run")
    }
}
