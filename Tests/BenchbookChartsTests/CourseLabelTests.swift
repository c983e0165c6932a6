import BenchbookBenchmark
import Foundation
import Testing
@testable import BenchbookCharts

/// Renders the charts of the course notebooks with their real labels (every ImageNet class
/// name the ImageNet models can answer, the Fashion-MNIST classes, the notebooks' variant
/// and recipe names, titles and the quoted table's sources) and fails when any drawn string
/// is cut: no ellipsis anywhere, and every label's words drawn in full.
@Suite struct CourseLabelTests {
    static let imageNetClasses: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/charts/imagenet-classes.json")
        return (try? JSONDecoder().decode([String].self, from: Data(contentsOf: url))) ?? []
    }()

    static let fashion = ChartSamples.fashionLabels

    /// Notebook 05's and 06's variant names, with the thread counts they are measured at.
    static let latencyNames = [
        "TorchScript fp32", "PyTorch Lite fp32", "PyTorch Lite fp32, no prepack", "TFLite fp32",
        "TorchScript int8", "PyTorch Lite int8", "TFLite int8", "EfficientNet-Lite0 int8", "EfficientNet-Lite0 fp32",
        "MobileNetV2 int8 (untrained)", "efficientnet_lite0_noprepack.ptl", "efficientnet_lite0_int8.tflite",
    ]

    /// Bar labels of notebooks 02, 03 and 04.
    static let barLabels = [
        "efficientNetLite", "symmetric", "imageNet", "unit", "raw", "unit v/255 (trained)", "ImageNet, 1 channel",
        "symmetric v/127.5 − 1", "raw 0...255", "correct argmax", "from index 1", "from 0.0", "from 0.0, log_softmax",
        "originals (reference)", "naive", "invert", "crop", "contrast", "invert + crop", "invert + contrast", "all three",
        "preset, threshold 16",
    ]

    /// Operator labels the profiles of the course models produce (kind → implementation).
    static let operatorLabels = [
        "aten::_convolution → aten::thnn_conv2d → aten::_slow_conv2d_forward", "aten::_convolution → aten::mkldnn_convolution",
        "aten::hardtanh", "prepacked::conv2d_clamp_run", "quantized::conv2d_relu", "aten::quantize_per_tensor",
        "Convolution (NHWC, F32) IGEMM → XNNPACK", "Fully Connected (NC, QS8, QC8W) GEMM → XNNPACK",
        "8-bit lookup table (fused elementwise operators) → XNNPACK",
        "LiteRT::Run[buffer registration] (runtime step)", "Invoke, between operators (runtime step)", "other: 32 operators",
    ]

    static let titles = [
        "TensorFlow Lite inference time: quoted phone figures and this machine's CPU",
        "Photos whose top class is right, by input normalisation (EfficientNet-Lite0)",
        "Clothing classifier: accuracy on 2,000 test images by input convention",
        "Latency: EfficientNet-Lite0 224x224, 1 thread, every format measured in turns",
        "efficientnet_lite0_noprepack.ptl, 2 threads: where a run's time goes",
    ]

    static let quotedSource = "Course module 8 (seed 002), « L'impact du Neural Engine, en chiffres »: 2.1 MB int8 QAT + "
        + "60 % pruned model, 4 threads, column « CPU seul (XNNPACK) »"

    /// Fails on an ellipsis and when a label's words are not all drawn whole. A word may be
    /// drawn in pieces on consecutive lines only where it breaks after a character that is not
    /// a letter or digit ("efficientnet_lite0_" "int8.tflite"); "Trous" "er" is a cut word.
    func expectWhole(_ labels: [String], in texts: [String], _ context: String) {
        let drawn = texts.joined(separator: " ")
        #expect(!drawn.contains("…"), "\(context): an ellipsis was drawn: \(texts.filter { $0.contains("…") })")
        // The drawn strings in order, joined where a line ended after a separator and kept
        // apart (by a character no label has) where it ended after a letter or digit.
        var joined = ""
        for text in texts {
            if let last = joined.last, last.isLetter || last.isNumber { joined.append("\u{0}") }
            joined += text
        }
        let drawnWords = Set(texts.flatMap { $0.split(separator: " ").map(String.init) })
        for label in labels {
            for word in label.split(separator: " ").map(String.init) where !drawnWords.contains(word) {
                #expect(joined.contains(word), "\(context): \"\(word)\" of \"\(label)\" is not drawn whole")
            }
        }
    }

    @Test func everyImageNetClassNameIsDrawnWholeInTopFive() throws {
        #expect(Self.imageNetClasses.count == 1000)
        for width in [460.0, 560.0] {
            for start in stride(from: 0, to: Self.imageNetClasses.count, by: 5) {
                var probabilities = [Double](repeating: 0, count: 1000)
                for offset in 0..<5 { probabilities[start + offset] = 0.5 - Double(offset) * 0.1 }
                let chart = TopKChart(probabilities: probabilities, labels: Self.imageNetClasses, k: 5,
                                      title: "Top 5 with this recipe", width: width)
                let names = Array(Self.imageNetClasses[start..<start + 5])
                expectWhole(names, in: try TextRecorder.texts(of: chart), "top 5 from class \(start) at \(width) pt")
            }
        }
    }

    @Test func fashionLabelsAreDrawnWholeUnderProbabilityBarsAndInTheConfusionMatrix() throws {
        for size in [ChartSize(width: 460, height: 260), ChartSize(width: 640, height: 360)] {
            let chart = ProbabilityChart(probabilities: ChartSamples.probabilities, labels: Self.fashion,
                                         title: "Class probabilities", size: size)
            expectWhole(Self.fashion, in: try TextRecorder.texts(of: chart), "probabilities at \(size.width) pt")
        }
        let counts = (0..<10).map { row in (0..<10).map { $0 == row ? 90 : 1 } }
        let matrix = ConfusionMatrixChart(counts: counts, labels: Self.fashion, title: "Confusion matrix")
        expectWhole(Self.fashion, in: try TextRecorder.texts(of: matrix), "confusion matrix")
    }

    @Test func latencyLabelsAreNeverCutWhateverTheirCount() throws {
        var generator = ChartSamples.Generator(state: 7)
        for count in [1, 3, 7, 12] {
            for threads in [[1], [1, 2]] {
                var results: [BenchmarkResult] = []
                for name in Self.latencyNames.prefix(count) {
                    for thread in threads {
                        results.append(BenchmarkResult(
                            name: name, options: BenchmarkOptions(threads: thread), initSeconds: nil, firstRunSeconds: 0.02,
                            warmupRuns: 1, warmupSeconds: 0.1, samples: generator.latencies(median: 0.004 * Double(name.count), count: 30),
                            measuredSeconds: 1, stoppedAtTimeLimit: false, peakResidentBytes: 0))
                    }
                }
                for style in [LatencyChart.Style.bars, .boxes] {
                    let chart = LatencyChart(results, style: style, title: Self.titles[3])
                    let texts = try TextRecorder.texts(of: chart)
                    // One name at several thread counts is labelled by thread count (the name is the title's).
                    let names = count == 1 && threads.count > 1 ? [] : Array(Self.latencyNames.prefix(count))
                    expectWhole(names + [Self.titles[3]], in: texts, "\(count) variants × \(threads) threads, \(style)")
                    #expect(chart.size.height >= 380)
                }
            }
        }
    }

    @Test func barAndOperatorLabelsAreDrawnWhole() throws {
        let bars = BarChart(values: Self.barLabels.indices.map { 0.5 + Double($0) / 100 }, labels: Self.barLabels,
                            title: Self.titles[1], format: .percent)
        expectWhole(Self.barLabels + [Self.titles[1]], in: try TextRecorder.texts(of: bars), "bar chart")
        let narrow = BarChart(values: [0.9, 0.8], labels: [Self.operatorLabels[0], Self.operatorLabels[1]], title: "t", width: 420)
        expectWhole(Array(Self.operatorLabels.prefix(2)), in: try TextRecorder.texts(of: narrow), "narrow bar chart")
    }

    @Test func theQuotedTableDrawsEveryRowAndSourceWhole() throws {
        let rows = ["iPhone 8 (A11), module's model", "iPhone 12 (A14), module's model", "iPhone 15 (A17 Pro), module's model",
                    "here: EfficientNet-Lite0 int8 · 1 thread", "here: MobileNetV2 int8 (untrained) · 2 threads"]
        let table = ComparisonTable(
            title: Self.titles[0], rowHeader: "where it ran", rows: rows, measuredHeader: "CPU (XNNPACK), p90 measured here",
            measured: [nil, nil, nil, "12.3 ms", "8.45 ms"],
            quoted: [.init(header: "CPU only (XNNPACK)", source: Self.quotedSource, values: ["65 ms", "32 ms", "18 ms", nil, nil]),
                     .init(header: "+ Core ML delegate", source: Self.quotedSource + " « + délégué Core ML »",
                           values: ["65 ms (Neural Engine non exposé à TFLite)", "12 ms", "5 ms", nil, nil])],
            width: 860)
        expectWhole(rows + [Self.quotedSource, "(Neural Engine non exposé à TFLite)"], in: try TextRecorder.texts(of: table),
                    "comparison table")
    }

    @Test func titlesLongerThanTheChartWrapInsteadOfBeingCut() throws {
        for title in Self.titles {
            let chart = TopKChart(probabilities: ChartSamples.probabilities, labels: Self.fashion, k: 3, title: title, width: 320)
            expectWhole([title], in: try TextRecorder.texts(of: chart), "title at 320 pt")
        }
    }

    @Test func lineBreakingKeepsEveryCharacter() throws {
        let canvas = try CairoCanvas(width: 200, height: 100, scale: 1)
        for label in Self.operatorLabels + Self.latencyNames + Self.imageNetClasses.prefix(50) {
            for width in [40.0, 80.0, 160.0] {
                let lines = canvas.lines(label, size: 11, maximumWidth: width)
                #expect(lines.joined().replacingOccurrences(of: " ", with: "") == label.replacingOccurrences(of: " ", with: ""))
                // Only a piece of a word that may not break is wider than the room.
                for line in lines where canvas.textWidth(line, size: 11) > width + 0.5 {
                    #expect(CairoCanvas.pieces(of: line).count == 1 && !line.contains(" "), "\(line)")
                }
            }
        }
    }
}
