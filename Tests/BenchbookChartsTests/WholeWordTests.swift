import BenchbookBenchmark
import Foundation
import Testing
@testable import BenchbookCharts

/// The course's real label sets, laid out by each chart at the sizes the notebooks use: every
/// label's lines, as the chart's layout breaks it, must keep each word whole (no break between
/// two letters or digits, none inside a number, no ellipsis). Exact: it reads the lines the
/// layout gives the drawing code, not pixels.
///
/// Set BENCHBOOK_CHART_ARTIFACTS to a folder to get the notebook-size charts as PNGs to look at.
@Suite struct WholeWordTests {
    static let fashion = ChartSamples.fashionLabels

    /// Every ImageNet class name the EfficientNet-Lite0 and MobileNetV2 files can answer.
    static let imageNet: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/charts/imagenet-classes.json")
        return (try? JSONDecoder().decode([String].self, from: Data(contentsOf: url))) ?? []
    }()

    /// The model files the notebooks load and name in titles, captions and labels.
    static let modelFiles = [
        "efficientnet_lite0.pt", "efficientnet_lite0.ptl", "efficientnet_lite0.tflite", "efficientnet_lite0_int8.pt",
        "efficientnet_lite0_int8.ptl", "efficientnet_lite0_int8.tflite", "efficientnet_lite0_noprepack.ptl",
        "mobilenet_v2_int8.tflite", "fashion_cnn.ptl",
    ]

    /// Bar labels of 02 (normalisations, clothing conventions), 03 (argmax mistakes) and 04 (recipes).
    static let barLabels = [
        ["efficientNetLite", "symmetric", "imageNet", "unit", "raw"],
        ["unit v/255 (trained)", "ImageNet, 1 channel", "symmetric v/127.5 − 1", "raw 0...255"],
        ["correct argmax", "from index 1", "from 0.0", "from 0.0, log_softmax"],
        ["originals (reference)", "naive", "invert", "crop", "contrast", "invert + crop", "invert + contrast", "all three",
         "preset, threshold 16"],
    ]

    /// Variant names of 05's latency charts.
    static let latencyNames = [
        "TorchScript fp32", "PyTorch Lite fp32", "PyTorch Lite fp32, no prepack", "TFLite fp32", "TorchScript int8",
        "PyTorch Lite int8", "TFLite int8",
    ]

    /// Operator labels of 05's and 06's profiles (libtorch and LiteRT), as OperatorProfileChart writes them.
    static let operators: [(kind: String, implementation: String?)] = [
        ("aten::_convolution", "aten::thnn_conv2d → aten::_slow_conv2d_forward"), ("aten::_convolution", "aten::mkldnn_convolution"),
        ("aten::hardtanh", "aten::clamp"), ("aten::pad", "aten::constant_pad_nd → aten::fill_"), ("aten::linear", "aten::addmm"),
        ("aten::adaptive_avg_pool2d", "aten::mean → aten::sum"), ("prepacked::conv2d_clamp_run", nil),
        ("prepacked::conv2d_clamp_run", "aten::contiguous → aten::clone → aten::copy_"), ("quantized::conv2d_relu", nil),
        ("Fully Connected (NC, QS8, QC8W) GEMM", "XNNPACK"), ("Convolution (NHWC, QC8) DWConv", "XNNPACK"),
        ("Convolution (NHWC, F32) IGEMM", "XNNPACK"), ("8-bit lookup table (fused elementwise operators)", "XNNPACK"),
        ("Mean (ND) Reduce2", "XNNPACK"), ("Static Reshape (NC)", "XNNPACK"), ("QUANTIZE", "TFLite kernel"),
    ]

    /// Runtime steps of LiteRT's profiles.
    static let runtimeSteps = ["LiteRT::Run[buffer registration]", "LiteRT::Run[Buffer sync]", "Invoke, between operators"]

    /// Titles of the notebooks' charts, with the widths they are drawn at.
    static let titles: [(String, Double)] = [
        ("Photos whose top class is right, by input normalisation (EfficientNet-Lite0)", 640),
        ("Clothing classifier: accuracy on 2,000 test images by input convention", 640),
        ("Accuracy by preprocessing recipe on 1,000 photo-style images", 640),
        ("Latency: EfficientNet-Lite0 224x224, 1 thread, in turns", 640),
        ("efficientnet_lite0_noprepack.ptl, 2 threads: where a run's time goes", 720),
        ("efficientnet_lite0_int8.tflite, 1 thread: where a run's time goes", 720),
        ("TensorFlow Lite inference time: quoted phone figures and this machine's CPU", 860),
        ("Top 5 with this recipe", 460), ("efficientnet_lite0_int8.tflite", 560), ("NHWC by reshaping (wrong)", 560),
    ]

    /// A canvas to measure text on (one per test: a canvas is not thread-safe).
    let scratch = try! CairoCanvas(width: 100, height: 10, scale: 1)

    /// Writes the chart's PNG (scale 1, as the explorers show them) to the folder that
    /// BENCHBOOK_CHART_ARTIFACTS names; nothing when it is unset.
    static func keep(_ chart: some Chart, _ name: String) throws {
        guard let folder = ProcessInfo.processInfo.environment["BENCHBOOK_CHART_ARTIFACTS"] else { return }
        try chart.write(to: folder + "/" + name + ".png", scale: 1)
    }

    // MARK: The judge can fail

    @Test func theJudgeFindsWordsCutMidWayAndEllipses() {
        #expect(!WholeWords.faults(label: "Trouser", lines: ["Trous", "er"]).isEmpty)
        #expect(!WholeWords.faults(label: "Ankle boot", lines: ["Ank", "le boot"]).isEmpty)
        #expect(!WholeWords.faults(label: "symmetric v/127.5 − 1", lines: ["symmetric v/127.", "5 − 1"]).isEmpty)
        #expect(!WholeWords.faults(label: "military uniform", lines: ["military unif…"]).isEmpty)
        #expect(!WholeWords.faults(label: "efficientnet_lite0_int8.tflite", lines: ["efficient…int8.tflite"]).isEmpty)
        #expect(!WholeWords.faults(label: "Windsor tie", lines: ["Windsor"]).isEmpty, "a word left out")
        #expect(WholeWords.faults(label: "T-shirt/top", lines: ["T-shirt/", "top"]).isEmpty)
        #expect(WholeWords.faults(label: "efficientnet_lite0_int8.tflite", lines: ["efficientnet_lite0_", "int8.tflite"]).isEmpty)
        #expect(WholeWords.faults(label: "Ankle boot", lines: ["Ankle", "boot"]).isEmpty)
        #expect(WholeWords.faults(label: "raw 0...255", lines: ["raw 0...255"]).isEmpty)
    }

    // MARK: Line breaking itself

    @Test func lineBreakingNeverSplitsAWordAtAnyWidth() {
        let labels = Self.fashion + Self.modelFiles + Self.barLabels.flatMap { $0 } + Self.latencyNames
            + Self.operators.map { $0.implementation.map { "\($0) → " } ?? "" } + Self.imageNet.prefix(200)
        for label in labels where !label.isEmpty {
            for width in [20.0, 40.0, 80.0, 160.0] {
                let lines = scratch.lines(label, size: 11, maximumWidth: width)
                WholeWords.expectWhole([label], [lines], "\(label) in \(width) pt")
                // A line wider than the room is one piece of a word that may not break.
                for line in lines where scratch.textWidth(line, size: 11) > width + 0.01 {
                    #expect(!line.contains(" ") && CairoCanvas.pieces(of: line).count == 1, "\(line) in \(width) pt")
                }
            }
        }
    }

    // MARK: Each chart, at the notebooks' sizes

    /// 04's explorer (460 × 260, shown at scale 1), 03's bundled sample and the charts notebook (640 × 360).
    @Test(arguments: [ChartSize(width: 460, height: 260), ChartSize(width: 640, height: 360)])
    func fashionClassNamesUnderProbabilityBars(_ size: ChartSize) throws {
        let chart = ProbabilityChart(probabilities: ChartSamples.probabilities, labels: Self.fashion,
                                     title: "Class probabilities", size: size)
        try Self.keep(chart, "probabilities-\(Int(size.width))")
        let layout = try chart.classLabelLayout()
        WholeWords.expectWhole(Self.fashion, layout.lines, "probabilities at \(size.width) × \(size.height)")
        if layout.rotation == 0 {
            #expect(scratch.fits(layout.lines, size: layout.size, maximumWidth: layout.room), "labels wider than their bars")
        } else {
            #expect(CairoCanvas.lineHeight(layout.size) <= layout.room, "turned labels touch their neighbours")
        }
        #expect(layout.size >= 7)
    }

    @Test func everyImageNetClassNameInTopFiveAtTheNotebooksWidths() throws {
        #expect(Self.imageNet.count == 1000)
        #expect(Self.imageNet.contains("military uniform") && Self.imageNet.contains("Windsor tie"))
        for width in [460.0, 560.0] {
            for start in stride(from: 0, to: Self.imageNet.count, by: 5) {
                var probabilities = [Double](repeating: 0, count: 1000)
                for offset in 0..<5 { probabilities[start + offset] = 0.5 - Double(offset) * 0.1 }
                let chart = TopKChart(probabilities: probabilities, labels: Self.imageNet, k: 5, title: "Top 5 with this recipe",
                                      width: width)
                let layout = chart.rowLabels(on: scratch)
                WholeWords.expectWhole(Array(Self.imageNet[start..<start + 5]), layout.lines, "top 5 from class \(start) at \(width) pt")
                #expect(layout.width <= width * 0.5, "top 5 from class \(start): a label column of \(layout.width) pt")
            }
        }
    }

    @Test func barLabelsOfNotebooks02To04() throws {
        for (index, labels) in Self.barLabels.enumerated() {
            let chart = BarChart(values: labels.indices.map { 0.5 + Double($0) / 100 }, labels: labels, title: "Accuracy",
                                 format: .percent)
            try Self.keep(chart, "bars-\(index)")
            WholeWords.expectWhole(labels, chart.rowLabels(on: scratch).lines, "bar chart \(index)")
        }
        // A narrow chart of file names: they break after their separators, never inside a word.
        let files = BarChart(values: Self.modelFiles.indices.map { Double($0 + 1) }, labels: Self.modelFiles, title: "Size",
                             width: 320)
        WholeWords.expectWhole(Self.modelFiles, files.rowLabels(on: scratch).lines, "file names at 320 pt")
    }

    @Test func imageGridCaptionsOfNotebooks03And04() throws {
        let pixel = try ChartImage(width: 1, height: 1, gray: [128])
        // 03: the photo set (file names, 6 columns of 110), test images right and wrong (8 columns of 72);
        // 04: the recipes' model inputs (5 columns of 84); the charts notebook: 6 columns of 96.
        let photoFiles = ["chelsea.png", "coffee.png", "rocket.jpg", "grace_hopper.jpg", "camera.png", "astronaut.png"]
        let wrong = Self.fashion.indices.map { ImageGrid.Item(image: pixel, prediction: Self.fashion[$0], confidence: 0.5,
                                                              truth: Self.fashion[($0 + 1) % 10]) }
        let right = Self.fashion.map { ImageGrid.Item(image: pixel, prediction: $0, confidence: 0.99, truth: $0) }
        let recipes = ["photo: Ankle boot"] + Self.barLabels[3].dropFirst()
        let grids = [
            ("photo-set", ImageGrid(photoFiles.map { ImageGrid.Item(image: pixel, prediction: $0) }, columns: 6, cellSize: 110)),
            ("test-images", ImageGrid(right + wrong, columns: 8, cellSize: 72)),
            ("recipes", ImageGrid(recipes.map { ImageGrid.Item(image: pixel, prediction: $0) }, columns: 5, cellSize: 84)),
            ("files", ImageGrid(Self.modelFiles.map { ImageGrid.Item(image: pixel, prediction: $0) }, columns: 6, cellSize: 40)),
        ]
        for (name, grid) in grids {
            try Self.keep(grid, "grid-" + name)
            let layout = grid.captionLayout(on: scratch)
            let marks = grid.items.map { $0.isCorrect.map { $0 ? "✓ " : "✗ " } ?? "" }
            WholeWords.expectWhole(zip(marks, grid.items).map { $0 + $1.prediction }, layout.predictionLines, "grid \(name)")
            for (item, lines) in zip(grid.items, layout.truthLines) {
                if let lines, let truth = item.truth { WholeWords.expectWhole(["true: " + truth], [lines], "grid \(name)") }
            }
            #expect(scratch.fits(layout.predictionLines, size: layout.size, maximumWidth: layout.cellWidth - 4, weight: .bold),
                    "grid \(name): a caption wider than its cell")
        }
    }

    @Test func latencyLabelsOfNotebook05() throws {
        var generator = ChartSamples.Generator(state: 5)
        func result(_ name: String, threads: Int) -> BenchmarkResult {
            BenchmarkResult(name: name, options: BenchmarkOptions(threads: threads), initSeconds: nil, firstRunSeconds: 0.02,
                            warmupRuns: 1, warmupSeconds: 0.1, samples: generator.latencies(median: 0.01, count: 20),
                            measuredSeconds: 1, stoppedAtTimeLimit: false, peakResidentBytes: 0)
        }
        let formats = Self.latencyNames.map { result($0, threads: 1) }
        let threads = ["TorchScript fp32", "PyTorch Lite fp32", "PyTorch Lite int8", "TFLite fp32"].flatMap {
            [result($0, threads: 1), result($0, threads: 2)]
        }
        let files = Self.modelFiles.map { result($0, threads: 1) }
        for (name, chart) in [("formats", LatencyChart(formats, title: "Latency")), ("threads", LatencyChart(threads, style: .boxes)),
                              ("files", LatencyChart(files, title: "files")), ("one", LatencyChart([result("efficientnet_lite0.ptl", threads: 1)]))] {
            try Self.keep(chart, "latency-" + name)
            let layout = chart.layout(on: nil)
            WholeWords.expectWhole(chart.slots.map(\.label), layout.labelLines, "latency \(name)")
            if layout.orientation == .vertical {
                #expect(scratch.fits(layout.labelLines, size: layout.labelSize, maximumWidth: layout.labelRoom), "latency \(name)")
            }
        }
    }

    @Test func operatorLabelsOfNotebooks05And06() throws {
        let chart = OperatorProfileChart(ChartSamples.operatorProfile(Self.operators, steps: Self.runtimeSteps), grouping: nil, top: 40)
        try Self.keep(chart, "operators")
        WholeWords.expectWhole(chart.entries.map(chart.label), chart.rowLabels(on: scratch).lines, "operator profile")
    }

    /// 06's table: the phones' rows, this machine's rows (contended ones marked ⚠), at 860 pt;
    /// and the same at 600 pt, where the columns must make room for their longest words.
    @Test(arguments: [860.0, 600.0])
    func comparisonTableOfNotebook06(_ width: Double) throws {
        let rows = ["iPhone 8 (A11), module's model", "iPhone 12 (A14), module's model", "iPhone 15 (A17 Pro), module's model",
                    "here: EfficientNet-Lite0 int8 · 1 thread ⚠", "here: EfficientNet-Lite0 fp32 · 2 threads",
                    "here: MobileNetV2 int8 (untrained) · 2 threads ⚠"]
        let source = "Course module 8 (seed 002), « L'impact du Neural Engine, en chiffres »: 2.1 MB int8 QAT + 60 % pruned "
            + "model, 4 threads, column"
        let table = ComparisonTable(
            title: Self.titles[6].0, rowHeader: "where it ran", rows: rows,
            measuredHeader: "CPU (XNNPACK), p90 measured here (95 % interval)",
            measured: [nil, nil, nil, "6.51 ms (2.72–6.75)", "14.2 ms (12.1–16.3)", "6.90 ms (4.45–7.41)"],
            quoted: [.init(header: "CPU only (XNNPACK)", source: source + " « CPU seul (XNNPACK) »",
                           values: ["65 ms", "32 ms", "18 ms", nil, nil, nil]),
                     .init(header: "+ Core ML delegate", source: source + " « + délégué Core ML »",
                           values: ["65 ms", "12 ms", "5 ms", nil, nil, nil])],
            width: width)
        try Self.keep(table, "comparison-table-\(Int(width))")
        let layout = table.layout(on: scratch)
        let headers = ["where it ran", "CPU (XNNPACK), p90 measured here (95 % interval)", "CPU only (XNNPACK) [1]",
                       "+ Core ML delegate [2]"]
        WholeWords.expectWhole(headers, layout.headerLines, "table headers at \(width) pt")
        for (row, cells) in layout.rowLines.enumerated() {
            let texts = [rows[row], table.measured[row] ?? "—"] + table.quoted.map { $0.values[row] ?? "—" }
            WholeWords.expectWhole(texts, cells, "table row \(row) at \(width) pt")
            for (column, lines) in cells.enumerated() {
                #expect(scratch.fits([lines], size: layout.textSize, maximumWidth: layout.columnWidths[column] - 14,
                                          weight: column == 1 ? .bold : .regular), "row \(row), column \(column) at \(width) pt")
            }
        }
        // Every mark in the cells is explained under the table.
        #expect(table.legend.map(\.symbol) == ["⚠", "—"])
        #expect(layout.legendLines.first?.joined(separator: " ").hasPrefix("⚠ contended:") == true)
        #expect(table.textSummary.contains("⚠ contended:"))
    }

    @Test func fashionClassNamesAlongTheConfusionMatrix() throws {
        let counts = (0..<10).map { row in (0..<10).map { $0 == row ? 90 : 1 } }
        let chart = ConfusionMatrixChart(counts: counts, labels: Self.fashion, title: "fashion_cnn.ptl on 10,000 test images")
        try Self.keep(chart, "confusion-matrix")
        let layout = try chart.axisLabelLayout()
        // Each name is drawn whole on one line; turned 45°, neighbours must not touch.
        #expect(CairoCanvas.lineHeight(layout.size) <= layout.cell * 0.5.squareRoot())
        #expect(layout.size >= 9)
    }

    @Test func titlesAtTheirWidths() {
        for (title, width) in Self.titles {
            let lines = scratch.lines(title, size: ChartStyle.titleSize, maximumWidth: width - 2 * ChartStyle.margin, weight: .bold)
            WholeWords.expectWhole([title], [lines], "title at \(width) pt")
            #expect(scratch.fits([lines], size: ChartStyle.titleSize, maximumWidth: width - 2 * ChartStyle.margin, weight: .bold))
        }
    }
}
