import BenchbookBenchmark
import BenchbookCharts
import Foundation

/// Deterministic sample charts, one per chart type, used by the golden-image tests.
enum ChartSamples {
    static let fashionLabels = [
        "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot",
    ]

    static let probabilities: [Double] = {
        let logits: [Double] = [1.2, -0.5, 2.1, 0.3, 3.4, -1.2, 2.6, -0.8, 0.1, -1.5]
        let exps = logits.map { exp($0) }
        let total = exps.reduce(0, +)
        return exps.map { $0 / total }
    }()

    /// A repeatable pseudo-random sequence in 0..<1.
    struct Generator {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        /// Log-normal run times around `median` seconds with a few slow outliers.
        mutating func latencies(median: Double, count: Int) -> [Double] {
            (0..<count).map { _ in
                let u1 = max(next(), 1e-12), u2 = next()
                let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
                let slow = next() < 0.03 ? 1.6 + next() : 1
                return median * exp(0.06 * normal) * slow
            }
        }
    }

    static func glyph(_ kind: Int) throws -> ChartImage {
        var pixels = [UInt8](repeating: 0, count: 28 * 28)
        for y in 0..<28 {
            for x in 0..<28 {
                let dx = Double(x) - 13.5, dy = Double(y) - 13.5
                let value: Double
                switch kind % 4 {
                case 0: value = (dx * dx + dy * dy) < 100 ? 1 : 0                 // disc
                case 1: value = abs(dx) < 4 || abs(dy) < 4 ? 0.9 : 0              // cross
                case 2: value = (x / 4 + y / 4) % 2 == 0 ? 0.8 : 0.1              // checker
                default: value = max(0, 1 - abs(dx + dy) / 6)                     // diagonal
                }
                pixels[y * 28 + x] = UInt8(value * 255)
            }
        }
        return try ChartImage(width: 28, height: 28, gray: pixels)
    }

    static func gradient() throws -> ChartImage {
        var pixels: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 {
                pixels += [UInt8(x * 4), UInt8(y * 5), UInt8(255 - x * 2)]
            }
        }
        return try ChartImage(width: 64, height: 48, rgb: pixels)
    }

    static func latencyResults() -> [BenchmarkResult] {
        var generator = Generator(state: 42)
        return [(1, 0.0121), (2, 0.0068), (4, 0.0049)].map { threads, median in
            BenchmarkResult(
                name: "mobilenet_v2", options: BenchmarkOptions.standard.with(threads: threads), initSeconds: 0.2,
                firstRunSeconds: median * 3, warmupRuns: 5, warmupSeconds: 0.5,
                samples: generator.latencies(median: median, count: 120), measuredSeconds: 1,
                stoppedAtTimeLimit: false, peakResidentBytes: 80 << 20)
        }
    }

    /// A LiteRT-like profile of 20 runs: each operator called 32 times a run, its share halving
    /// down the list, and LiteRT's own steps.
    static func operatorProfile(_ operators: [(kind: String, implementation: String?)],
                                steps: [String] = ["LiteRT::Run[buffer registration]", "Invoke, between operators"]) -> OperatorProfile {
        let entries = operators.enumerated().map { index, entry in
            OperatorProfile.Operator(kind: entry.kind, name: "#\(index)", implementation: entry.implementation, calls: 32 * 20,
                                     totalSeconds: 0.02 / Double(index + 1), share: 0.5 / Double(index + 1))
        } + steps.map {
            OperatorProfile.Operator(kind: $0, name: "runtime", implementation: nil, calls: 20, totalSeconds: 0.001, share: 0.01,
                                     isRuntimeStep: true)
        }
        return OperatorProfile(title: "efficientnet_lite0_int8.tflite", runtime: "LiteRT profiler", threads: 1, operators: entries,
                               runSeconds: [Double](repeating: 0.05, count: 20),
                               operatorSecondsPerRun: [Double](repeating: 0.045, count: 20), allCalls: [:])
    }

    /// Every chart type, by golden file name.
    static func all() throws -> [(String, any Chart)] {
        let grid = ImageGrid([
            .init(image: try glyph(0), prediction: "Bag", confidence: 0.97, truth: "Bag"),
            .init(image: try glyph(1), prediction: "Shirt", confidence: 0.61, truth: "T-shirt/top"),
            .init(image: try glyph(2), prediction: "Sneaker", confidence: 0.88, truth: "Sneaker"),
            .init(image: try glyph(3), prediction: "Ankle boot", confidence: 0.74, truth: "Sandal"),
            .init(image: try gradient(), prediction: "Pullover", confidence: 0.52, truth: "Pullover"),
        ], columns: 5, cellSize: 80, title: "Fashion-MNIST test images")

        let heat = HeatMap(values: (0..<64).map { i in sin(Double(i % 8) * 0.7) * cos(Double(i / 8) * 0.5) },
                           rows: 8, columns: 8, title: "Input tensor, channel 0", rowLabel: "y", columnLabel: "x",
                           size: ChartSize(width: 440, height: 400))

        var counts = [[Int]](repeating: [Int](repeating: 0, count: 10), count: 10)
        var generator = Generator(state: 7)
        for t in 0..<10 {
            for p in 0..<10 {
                counts[t][p] = t == p ? 70 + Int(generator.next() * 25) : (generator.next() < 0.3 ? Int(generator.next() * 12) : 0)
            }
        }
        counts[6][0] = 19
        counts[4][2] = 14

        let boxes = LatencyChart(latencyResults(), style: .boxes, title: "mobilenet_v2 latency by threads")
        let table = ComparisonTable(
            title: "MobileNetV2 latency, 224 × 224",
            rows: ["fp32 · 1 thread", "fp32 · 4 threads", "int8 · 4 threads"],
            measuredHeader: "p90, measured here", measured: ["12.3 ms", "5.1 ms", nil],
            quoted: [
                .init(header: "Phone A, CPU", source: "Course slides, lecture 9 (example figures)", values: ["18 ms", "7 ms", "4 ms"]),
                .init(header: "Phone A, NNAPI", source: "Vendor benchmark page (example figures)", values: [nil, "3.2 ms", "1.9 ms"]),
            ], width: 600)
        let latencies: [Double] = [0.62, 1.9, 20.4, 118.5, 402.0]
        let latencyLabels = ["fashion_cnn.tflite · 1 thread", "efficientnet_lite0_int8.tflite · 1 thread",
                             "efficientnet_lite0.ptl · 1 thread", "efficientnet_lite0.pt · 1 thread",
                             "mobilenet_v2.ptl · 2 threads (before the fix)"]
        let barLog = BarChart(values: latencies, labels: latencyLabels, title: "Median latency (ms)",
                              valueLabel: "milliseconds", format: .number(decimals: 1, unit: "ms"), width: 560)
        let accuracies: [Double] = [0.916, 0.912, 0.441, 0.1]
        let barPercent = BarChart(values: accuracies, labels: ["unit v/255 (trained)", "ImageNet 1-channel", "symmetric", "raw 0-255"],
                                  title: "Accuracy by input convention", valueLabel: "share of test images correct",
                                  format: .percent, highlighted: [0], width: 560)
        let spread: [Double] = (0..<2000).map { index in
            let base = Double((index * 7919) % 1000) / 1000
            return base * Double(index % 3 + 1) / 3
        }
        let histogram = Histogram(values: spread, bins: 20, range: 0...1, title: "Input values", valueLabel: "value")
        return [
            ("probability-bars", ProbabilityChart(probabilities: probabilities, labels: fashionLabels, title: "Prediction: Coat")),
            ("top-k", TopKChart(probabilities: probabilities, labels: fashionLabels, k: 5)),
            ("image-grid", grid),
            ("heat-map", heat),
            ("confusion-matrix", ConfusionMatrixChart(counts: counts, labels: fashionLabels, title: "Fashion-MNIST test set")),
            ("latency-bars", LatencyChart(latencyResults(), title: "mobilenet_v2 latency by threads")),
            ("latency-boxes", boxes),
            ("comparison-table", table),
            ("bar-chart-log", barLog),
            ("bar-chart-percent", barPercent),
            ("histogram", histogram),
        ]
    }
}
