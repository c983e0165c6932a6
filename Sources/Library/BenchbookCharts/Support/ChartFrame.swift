import Foundation

/// Title, subtitle and margins common to every chart.
enum ChartFrame {
    /// Draws the title (and an optional subtitle under it), each broken into as many lines as
    /// the width needs, and returns the area left for the chart body.
    static func draw(on canvas: CairoCanvas, title: String, subtitle: String? = nil) -> ChartRect {
        let margin = ChartStyle.margin
        let top = margin + headerHeight(on: canvas, title: title, subtitle: subtitle, width: canvas.width)
        var y = margin
        if !title.isEmpty {
            let lines = canvas.lines(title, size: ChartStyle.titleSize, maximumWidth: canvas.width - 2 * margin, weight: .bold)
            canvas.text(lines: lines, at: ChartPoint(x: margin, y: y), size: ChartStyle.titleSize, weight: .bold)
            y += CairoCanvas.blockHeight(lines: lines.count, size: ChartStyle.titleSize) + 6
        }
        if let subtitle, !subtitle.isEmpty {
            let lines = canvas.lines(subtitle, size: ChartStyle.subtitleSize, maximumWidth: canvas.width - 2 * margin)
            canvas.text(lines: lines, at: ChartPoint(x: margin, y: y), size: ChartStyle.subtitleSize, color: .secondaryText)
        }
        return ChartRect(x: margin, y: top + 6, width: canvas.width - 2 * margin, height: canvas.height - top - 6 - margin)
    }

    /// The height the title and subtitle take at `width` (for charts whose height follows
    /// from their content).
    static func headerHeight(on canvas: CairoCanvas, title: String, subtitle: String?, width: Double) -> Double {
        let margin = ChartStyle.margin
        var height = 0.0
        if !title.isEmpty {
            let count = canvas.lines(title, size: ChartStyle.titleSize, maximumWidth: width - 2 * margin, weight: .bold).count
            height += CairoCanvas.blockHeight(lines: count, size: ChartStyle.titleSize) + 6
        }
        if let subtitle, !subtitle.isEmpty {
            let count = canvas.lines(subtitle, size: ChartStyle.subtitleSize, maximumWidth: width - 2 * margin).count
            height += CairoCanvas.blockHeight(lines: count, size: ChartStyle.subtitleSize) + 6
        }
        return height
    }

    /// The extra height a header needs beyond one title line and one subtitle line (the room
    /// charts of a fixed layout reserve), measured on a scratch canvas.
    static func extraHeaderHeight(title: String, subtitle: String?, width: Double) -> Double {
        guard let canvas = try? CairoCanvas(width: width, height: 10, scale: 1) else { return 0 }
        let needed = headerHeight(on: canvas, title: title, subtitle: subtitle, width: width)
        var reserved = title.isEmpty ? 0 : CairoCanvas.blockHeight(lines: 1, size: ChartStyle.titleSize) + 6
        if let subtitle, !subtitle.isEmpty { reserved += CairoCanvas.blockHeight(lines: 1, size: ChartStyle.subtitleSize) + 6 }
        return max(0, needed - reserved)
    }
}

/// Maps a value range onto a pixel range.
struct LinearScale {
    var domain: (Double, Double)
    var range: (Double, Double)

    func callAsFunction(_ value: Double) -> Double {
        let span = domain.1 - domain.0
        let t = span == 0 ? 0 : (value - domain.0) / span
        return range.0 + t * (range.1 - range.0)
    }
}

/// Round tick values (steps of 1, 2 or 5 times a power of ten).
enum Ticks {
    /// About `count` ticks covering `low...high`; the first is ≤ low and the last ≥ high.
    static func nice(_ low: Double, _ high: Double, count: Int = 5) -> [Double] {
        guard low.isFinite, high.isFinite else { return [0, 1] }
        var low = low, high = high
        if high <= low { high = low + (low == 0 ? 1 : abs(low) * 0.1) }
        let rough = (high - low) / Double(max(count, 1))
        let power = pow10(floor(log10(rough)))
        let fraction = rough / power
        let step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power
        low = floor(low / step + 1e-9) * step
        high = ceil(high / step - 1e-9) * step
        var ticks: [Double] = []
        var value = low
        while value <= high + step * 1e-6 && ticks.count < 50 {
            ticks.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return ticks
    }

    /// Tick label text with just enough decimals for the step.
    static func label(_ value: Double, step: Double) -> String {
        let decimals = step >= 1 ? 0 : min(6, Int(ceil(-log10(step) - 1e-9)))
        return NumberText.fixed(value, decimals: decimals)
    }

    private static func pow10(_ x: Double) -> Double { exp(x * log(10)) }
}

/// Number formatting without Foundation's locale-dependent formatters.
enum NumberText {
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return String(value) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let whole = Int(rounded / scale)
        let fraction = Int((rounded - Double(whole) * scale).rounded())
        let sign = value < 0 && rounded > 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let text = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: max(0, decimals - text.count)) + text
    }

    /// A probability as a percentage: "93.4 %" (or "< 0.1 %").
    static func percent(_ probability: Double) -> String {
        let value = probability * 100
        if value > 0 && value < 0.1 { return "< 0.1 %" }
        return fixed(value, decimals: value >= 99.95 || value < 10 ? 1 : 1) + " %"
    }

    /// 3 significant figures.
    static func significant(_ value: Double) -> String {
        let magnitude = abs(value)
        return fixed(value, decimals: magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3)
    }
}
