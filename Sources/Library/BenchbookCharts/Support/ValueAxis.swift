/// Draws a numeric axis with grid lines, tick labels and a title.
enum ValueAxis {
    /// A vertical value axis on the left of `plot`, grid lines across it.
    static func drawVertical(on canvas: CairoCanvas, plot: ChartRect, scale: (Double) -> Double, ticks: [Double],
                             format: (Double) -> String, title: String?) {
        for tick in ticks {
            let y = scale(tick)
            canvas.line(from: ChartPoint(x: plot.minX, y: y), to: ChartPoint(x: plot.maxX, y: y), .grid)
            canvas.text(format(tick), at: ChartPoint(x: plot.minX - 6, y: y), size: ChartStyle.tickSize,
                        color: .secondaryText, horizontal: .trailing, vertical: .middle)
        }
        canvas.line(from: ChartPoint(x: plot.minX, y: plot.minY), to: ChartPoint(x: plot.minX, y: plot.maxY), .axis)
        if let title {
            let labelWidth = ticks.map { canvas.textWidth(format($0), size: ChartStyle.tickSize) }.max() ?? 0
            canvas.text(title, at: ChartPoint(x: plot.minX - labelWidth - 14, y: plot.midY), size: ChartStyle.axisTitleSize,
                        color: .text, horizontal: .center, vertical: .bottom, rotation: -Double.pi / 2)
        }
    }

    /// A horizontal value axis under `plot`, grid lines up through it.
    static func drawHorizontal(on canvas: CairoCanvas, plot: ChartRect, scale: (Double) -> Double, ticks: [Double],
                               format: (Double) -> String, title: String?) {
        for tick in ticks {
            let x = scale(tick)
            canvas.line(from: ChartPoint(x: x, y: plot.minY), to: ChartPoint(x: x, y: plot.maxY), .grid)
            canvas.text(format(tick), at: ChartPoint(x: x, y: plot.maxY + 5), size: ChartStyle.tickSize,
                        color: .secondaryText, horizontal: .center, vertical: .top)
        }
        canvas.line(from: ChartPoint(x: plot.minX, y: plot.maxY), to: ChartPoint(x: plot.maxX, y: plot.maxY), .axis)
        if let title {
            canvas.text(title, at: ChartPoint(x: plot.midX, y: plot.maxY + 8 + ChartStyle.tickSize + 6),
                        size: ChartStyle.axisTitleSize, horizontal: .center, vertical: .top)
        }
    }

    /// Widest tick label, to reserve room for a vertical axis.
    static func labelWidth(on canvas: CairoCanvas, ticks: [Double], format: (Double) -> String) -> Double {
        ticks.map { canvas.textWidth(format($0), size: ChartStyle.tickSize) }.max() ?? 0
    }
}
