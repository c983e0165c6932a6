import BenchbookBenchmark
import Foundation

/// Where a model's run time goes: the operators with the largest share as horizontal bars,
/// the rest added up in one bar, and the runtime's own steps (grey) under them.
///
/// Each bar is labelled with the operator's kind and the implementation its time went to
/// (for libtorch, the nested operators that did the work: "aten::_convolution →
/// aten::thnn_conv2d"), and carries its share of the operators' total, its time per run and
/// (operators only) its calls per run, written "33 calls/run". The subtitle says whether the
/// operators account for the measured run time (``OperatorProfile/agreement``).
///
/// ```swift
/// let model = try Model(contentsOf: "models/fashion_cnn.pt")
/// let input = try Image(contentsOfFile: "data/sample_ankle_boot.png").tensor()
/// OperatorProfileChart(try model.profile(input, runs: 10))
/// ```
public struct OperatorProfileChart: Chart {
    /// The profile drawn (after grouping).
    public var profile: OperatorProfile
    /// How many bars of operators at most (the last adds up the rest).
    public var top: Int
    /// The title.
    public var title: String
    /// Width in points; the height follows from the bars and their label lines.
    public var width: Double

    /// Creates the chart.
    /// - Parameters:
    ///   - profile: the profile, for example from `Model.profile`.
    ///   - grouping: operators of the same kind (and implementation) added up, or each
    ///     operator of the model on its own (nil).
    ///   - top: bars of operators at most; the last adds up the rest.
    ///   - title: the title; the file, thread count and "where a run's time goes" when nil.
    ///   - width: width in points.
    public init(_ profile: OperatorProfile, grouping: OperatorProfile.Grouping? = .kindAndImplementation, top: Int = 8,
                title: String? = nil, width: Double = 720) {
        self.profile = grouping.map { profile.grouped(by: $0) } ?? profile
        self.top = max(top, 1)
        self.title = title ?? "\(profile.title), \(profile.threads) thread\(profile.threads == 1 ? "" : "s"): where a run's time goes"
        self.width = width
    }

    /// The bars: the top operators (the rest added up), then the runtime steps.
    var entries: [OperatorProfile.Operator] { profile.top(top) + profile.operators.filter(\.isRuntimeStep) }

    private static let labelSize = 11.5
    private var labelRoom: Double { (width - 2 * ChartStyle.margin) * 0.42 }
    private var subtitle: String { "\(profile.runtime) · \(profile.agreement)" }

    /// A bar's label: the kind and implementation, a runtime step marked as one, the rest counted.
    func label(_ entry: OperatorProfile.Operator) -> String {
        entry.isRuntimeStep ? "\(entry.kind) (runtime step)" : entry.kind == "other" ? "other: \(entry.name)" : entry.label
    }

    /// The bar labels as they are drawn: their lines, type size and column width.
    func rowLabels(on canvas: CairoCanvas) -> RowLabels {
        RowLabels(entries.map(label), on: canvas, size: Self.labelSize, maximumWidth: labelRoom, minimumRowHeight: 26)
    }

    private var rowHeight: Double {
        (try? CairoCanvas(width: 100, height: 10, scale: 1)).map { rowLabels(on: $0).rowHeight } ?? 26
    }

    /// Height follows from the bars and their label lines.
    public var size: ChartSize {
        ChartSize(width: width, height: 86 + rowHeight * Double(max(entries.count, 1)) + 24
            + ChartFrame.extraHeaderHeight(title: title, subtitle: subtitle, width: width))
    }

    /// One line per bar.
    public var textSummary: String {
        ([title, subtitle] + entries.map { "\(label($0)): \(valueText($0))" }).joined(separator: "\n")
    }

    /// The figures written at a bar's end: its share, its time per run and, for an operator,
    /// how many times a run calls it ("62.4 % · 4.61 ms · 33 calls/run").
    func valueText(_ entry: OperatorProfile.Operator) -> String {
        let runs = Double(max(profile.runs, 1))
        var text = "\(NumberText.fixed(entry.share * 100, decimals: 1)) % · \(DurationFormat.string(entry.totalSeconds / runs))"
        if entry.calls > 0 && !entry.isRuntimeStep {
            text += " · " + Self.callsPerRun(Double(entry.calls) / runs)
        }
        return text
    }

    /// "33 calls/run", "1 call/run", "0.5 calls/run": calls per run, whole when they are.
    static func callsPerRun(_ calls: Double) -> String {
        let whole = (calls - calls.rounded()).magnitude < 1e-9
        let number = whole ? NumberText.fixed(calls, decimals: 0) : NumberText.fixed(calls, decimals: calls < 10 ? 2 : 1)
        return number + (whole && calls.rounded() == 1 ? " call/run" : " calls/run")
    }

    /// Renders the chart as PNG.
    public func pngData(scale: Double = 2) throws -> Data {
        guard !entries.isEmpty else { throw ChartError.invalidData("the profile has no operators") }
        return try ChartRenderer.png(size: size, scale: scale, draw: draw)
    }

    private func draw(on canvas: CairoCanvas) {
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle)
        let entries = self.entries
        let names = rowLabels(on: canvas)
        let valueTexts = entries.map(valueText)
        // The first bar's figures are bold.
        let valueWidth = (valueTexts.enumerated().map {
            canvas.textWidth($1, size: Self.labelSize, weight: $0 == 0 ? .bold : .regular)
        }.max() ?? 0) + 10
        let plot = body.inset(top: 0, left: names.width + 10, bottom: 42, right: valueWidth)
        let peak = max(entries.map(\.share).max() ?? 1, 1e-9)
        let ticks = Ticks.nice(0, min(peak * 100, 100), count: 5)
        let x = LinearScale(domain: (0, (ticks.last ?? 100) / 100), range: (plot.minX, plot.maxX))
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        ValueAxis.drawHorizontal(on: canvas, plot: plot, scale: { x($0 / 100) }, ticks: ticks,
                                 format: { Ticks.label($0, step: step) + " %" },
                                 title: "share of the operators' time (runtime steps: of the run's)")
        let row = plot.height / Double(entries.count)
        for (index, entry) in entries.enumerated() {
            let top = plot.minY + row * Double(index)
            let bar = ChartRect(x: plot.minX, y: top + row * 0.2, width: max(x(entry.share) - plot.minX, 1), height: row * 0.6)
            let color: ChartColor = entry.isRuntimeStep ? .axis : entry.kind == "other" ? .primary.mixed(with: .white, 0.4)
                : index == 0 ? .highlight : .primary
            canvas.fill(bar, color)
            canvas.text(lines: names.lines[index], at: ChartPoint(x: plot.minX - 8, y: bar.midY), size: names.size,
                        color: entry.isRuntimeStep ? .secondaryText : .text, horizontal: .trailing, vertical: .middle)
            canvas.text(valueTexts[index], at: ChartPoint(x: bar.maxX + 5, y: bar.midY), size: Self.labelSize,
                        weight: index == 0 ? .bold : .regular, vertical: .middle)
        }
    }
}
