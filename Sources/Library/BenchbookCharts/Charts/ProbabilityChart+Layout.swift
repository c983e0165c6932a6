import Foundation

/// Where a probability chart's class names and values go, and which bars carry a value.
extension ProbabilityChart {
    /// Classes at least this probable carry their value over the bar (the top class always does).
    public static let valueThreshold = 0.05

    /// The classes whose bars carry their value, in class order: the top class and every
    /// class of ``valueThreshold`` or more.
    var valued: [Int] {
        let top = topIndex
        return probabilities.indices.filter { $0 == top || probabilities[$0] >= Self.valueThreshold }
    }

    /// Whether the bars are named under the axis (40 classes or fewer).
    var namesClasses: Bool { probabilities.count <= 40 }

    /// The class names under the bars.
    struct ClassLabelLayout {
        /// Type size.
        var size: Double
        /// Each class name's lines (one line each when rotated; empty when the chart has too
        /// many classes to name them).
        var lines: [[String]]
        /// The labels' angle in radians: 0 (under their bars), -π/4 or -π/2 (each label's end at
        /// its bar, the text running down to the left).
        var rotation: Double
        /// The room the labels take under the plot.
        var height: Double
        /// The room between two neighbouring labels' baselines (rotated) or the width each
        /// line may take (not rotated).
        var room: Double
    }

    /// Class labels for bar slots of `slot` points: under their bars on at most three lines
    /// (type from 11 down to 9 points), else rotated 45°, else 90°, each on one line in the
    /// largest type whose lines do not touch their neighbours'.
    func classLabelLayout(on canvas: CairoCanvas, slot: Double) -> ClassLabelLayout {
        guard namesClasses else {
            return ClassLabelLayout(size: ChartStyle.tickSize, lines: [], rotation: 0, height: ChartStyle.tickSize + 4, room: slot)
        }
        let names = probabilities.indices.map(label)
        let fitted = canvas.fit(names, largest: ChartStyle.tickSize, smallest: 9, maximumWidth: slot - 3, maximumLines: 3)
        if fitted.fits {
            return ClassLabelLayout(size: fitted.size, lines: fitted.lines, rotation: 0,
                                    height: CairoCanvas.blockHeight(lines: fitted.tallest, size: fitted.size) + 4, room: slot - 3)
        }
        for (rotation, spacing) in [(-Double.pi / 4, slot * 0.5.squareRoot()), (-Double.pi / 2, slot)] {
            var size = ChartStyle.tickSize
            while size >= 7, CairoCanvas.lineHeight(size) > spacing { size -= 0.5 }
            guard size >= 7 else { continue }
            let widest = names.map { canvas.textWidth($0, size: size) }.max() ?? 0
            let height = rotation == -Double.pi / 2 ? widest : (widest + size) * 0.5.squareRoot()
            return ClassLabelLayout(size: size, lines: names.map { [$0] }, rotation: rotation, height: height + 6, room: spacing)
        }
        // Slots under 9 points (40 classes in less than about 400 points): the smallest type,
        // upright, even though neighbours touch.
        return ClassLabelLayout(size: 7, lines: names.map { [$0] }, rotation: -Double.pi / 2,
                                height: (names.map { canvas.textWidth($0, size: 7) }.max() ?? 0) + 6, room: slot)
    }

    /// The class-label layout the chart is drawn with.
    func classLabelLayout() throws -> ClassLabelLayout {
        let canvas = try CairoCanvas(width: size.width, height: size.height, scale: 1)
        return layout(on: canvas).classLabels
    }

    /// The values over the bars: their type size and whether they stand upright (-π/2).
    struct ValueLabelLayout {
        var size: Double
        var rotation: Double
        /// The room over the plot the values need.
        var headroom: Double
    }

    /// Values in the largest type (10.5 down to 8 points) at which the widest fits its bar's
    /// slot; turned upright when none does.
    func valueLabelLayout(on canvas: CairoCanvas, slot: Double) -> ValueLabelLayout {
        // Classes not named: one value, the top bar's with its name, level and kept inside the plot.
        guard namesClasses else { return ValueLabelLayout(size: ChartStyle.annotationSize, rotation: 0, headroom: 14) }
        let texts = valued.map { valueText($0) }
        var size = ChartStyle.annotationSize
        while size >= 8 {
            if (texts.map { canvas.textWidth($0, size: size, weight: .bold) }.max() ?? 0) <= slot - 2 {
                return ValueLabelLayout(size: size, rotation: 0, headroom: max(14, CairoCanvas.lineHeight(size) + 4))
            }
            size -= 0.5
        }
        let upright = max(8, min(ChartStyle.annotationSize, (slot - 2) / 1.22))
        let widest = texts.map { canvas.textWidth($0, size: upright, weight: .bold) }.max() ?? 0
        return ValueLabelLayout(size: upright, rotation: -Double.pi / 2, headroom: widest + 8)
    }

    func valueText(_ index: Int) -> String {
        namesClasses ? NumberText.percent(probabilities[index]) : "\(label(index)): \(NumberText.percent(probabilities[index]))"
    }

    var subtitle: String {
        let top = topIndex ?? 0
        var text = "top: \(label(top)), \(NumberText.percent(probabilities[top]))"
        if !namesClasses {
            let others = valued.filter { $0 != top }
            if !others.isEmpty {
                text += "; also 5 % or more: " + others.sorted { probabilities[$0] > probabilities[$1] }
                    .map { "\(label($0)) (index \($0)), \(NumberText.percent(probabilities[$0]))" }.joined(separator: "; ")
            }
        }
        return text
    }

    var valueTicks: [Double] {
        let peak = max(probabilities.max() ?? 1, 1e-9)
        let ceiling = peak > 0.5 ? 1.0 : Ticks.nice(0, peak, count: 5).last ?? 1
        return Ticks.nice(0, ceiling, count: 5)
    }

    func tickFormat(_ ticks: [Double]) -> (Double) -> String {
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        return { (v: Double) in Ticks.label(v * 100, step: step * 100) + " %" }
    }

    /// Where everything goes.
    struct Layout {
        var plot: ChartRect
        var classLabels: ClassLabelLayout
        var values: ValueLabelLayout
    }

    /// The plot area and the label layouts. Rotated labels run down to the left of their bars:
    /// the plot moves right when the first ones would leave the canvas.
    func layout(on canvas: CairoCanvas) -> Layout {
        let body = ChartFrame.draw(on: canvas, title: title, subtitle: subtitle)
        let count = Double(probabilities.count)
        let ticks = valueTicks
        let axisWidth = ValueAxis.labelWidth(on: canvas, ticks: ticks, format: tickFormat(ticks)) + 28
        let slot = (body.width - axisWidth - 4) / count
        let classLabels = classLabelLayout(on: canvas, slot: slot)
        let values = valueLabelLayout(on: canvas, slot: slot)
        var left = axisWidth
        if classLabels.rotation == -Double.pi / 4 {
            // The text of label i reaches (its width × cos 45°) left of its bar's centre.
            let overhang = classLabels.lines.enumerated().map { index, lines in
                canvas.textWidth(lines[0], size: classLabels.size) * 0.5.squareRoot() - slot * (Double(index) + 0.5)
            }.max() ?? 0
            // Keep 4 points to the canvas's edge (and a little more: a wider left narrows the slots).
            left = max(axisWidth, overhang - body.minX + 4 + slot * 0.1)
        }
        let plot = body.inset(top: values.headroom, left: left,
                              bottom: classLabels.height + 8 + ChartStyle.axisTitleSize + 10, right: 4)
        return Layout(plot: plot, classLabels: classLabels, values: values)
    }
}
