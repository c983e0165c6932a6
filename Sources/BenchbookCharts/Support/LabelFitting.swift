import Foundation

/// Text that must fit a width is broken into lines, never shortened: a chart that cannot fit
/// its labels on the lines it has changes its layout (more lines, a horizontal chart, a
/// taller chart), so that no label is cut and no two labels can look alike.
extension CairoCanvas {
    /// Characters after which a word too long for a line may break ("efficientnet_lite0_int8.ptl").
    static let breakAfter: Set<Character> = ["_", ".", "/", "-", "·", ",", ":", "(", "→"]

    /// `text` broken into lines no wider than `maximumWidth`: at spaces, then inside a word too
    /// long for a line after `_ . / - · , :`, and only as a last resort between characters.
    /// Every character of `text` is kept (spaces at line breaks are dropped).
    /// - Parameters:
    ///   - text: the text.
    ///   - size: type size.
    ///   - maximumWidth: the room for each line.
    ///   - weight: font weight.
    /// - Returns: one or more lines.
    func lines(_ text: String, size: Double, maximumWidth: Double, weight: FontWeight = .regular) -> [String] {
        let words = Self.unbreakable(text.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
        guard !words.isEmpty else { return [text] }
        var lines: [String] = []
        var current = ""
        func width(_ candidate: String) -> Double { textWidth(candidate, size: size, weight: weight) }
        for word in words {
            let joined = current.isEmpty ? word : current + " " + word
            if width(joined) <= maximumWidth {
                current = joined
                continue
            }
            if !current.isEmpty {
                lines.append(current)
                current = ""
            }
            if width(word) <= maximumWidth {
                current = word
                continue
            }
            // A word wider than a line: break it into pieces.
            for piece in pieces(of: word) {
                if width(current + piece) <= maximumWidth || current.isEmpty && width(piece) <= maximumWidth {
                    current += piece
                    continue
                }
                if !current.isEmpty { lines.append(current) }
                current = ""
                for character in piece {
                    if !current.isEmpty && width(current + String(character)) > maximumWidth {
                        lines.append(current)
                        current = ""
                    }
                    current.append(character)
                }
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Words with the spaces a line must not break at put back: before a unit or a closing
    /// mark ("95 %", "12 ms", "(XNNPACK) »") and after an opening one ("« CPU").
    static func unbreakable(_ words: [String]) -> [String] {
        let gluedToPrevious: Set<String> = ["%", "»", "ms", "µs", "s", "MB", "MiB", "×"]
        var result: [String] = []
        var openPending = false
        for word in words {
            let glue = gluedToPrevious.contains(word.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:)]")))
            if let last = result.last, glue || openPending, !result.isEmpty {
                result[result.count - 1] = last + " " + word
            } else {
                result.append(word)
            }
            openPending = word == "«"
        }
        return result
    }

    /// A word split after each break character, the character kept with the piece before it.
    private func pieces(of word: String) -> [String] {
        var pieces: [String] = []
        var piece = ""
        for character in word {
            piece.append(character)
            if Self.breakAfter.contains(character) {
                pieces.append(piece)
                piece = ""
            }
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// Each label broken into lines of `maximumWidth`.
    func lines(of labels: [String], size: Double, maximumWidth: Double, weight: FontWeight = .regular) -> [[String]] {
        labels.map { lines($0, size: size, maximumWidth: maximumWidth, weight: weight) }
    }

    /// The height of `count` lines of text at `size`.
    static func blockHeight(lines count: Int, size: Double) -> Double {
        Double(max(count, 1)) * lineHeight(size) - (lineHeight(size) - size)
    }

    /// Distance between the baselines of two lines at `size`.
    static func lineHeight(_ size: Double) -> Double { (size * 1.22).rounded(.up) }

    /// Draws lines of text as a block anchored at `point`: `vertical` places the block's top,
    /// middle or bottom there, `horizontal` aligns every line.
    func text(lines: [String], at point: ChartPoint, size: Double, color: ChartColor = .text,
              weight: FontWeight = .regular, italic: Bool = false, horizontal: HorizontalAnchor = .leading,
              vertical: VerticalAnchor = .top) {
        let step = Self.lineHeight(size)
        let height = Self.blockHeight(lines: lines.count, size: size)
        let top: Double
        switch vertical {
        case .top, .baseline: top = point.y
        case .middle: top = point.y - height / 2
        case .bottom: top = point.y - height
        }
        for (index, line) in lines.enumerated() {
            text(line, at: ChartPoint(x: point.x, y: top + step * Double(index)), size: size, color: color,
                 weight: weight, italic: italic, horizontal: horizontal, vertical: .top)
        }
    }
}

/// Labels left of horizontal rows (bar charts, top-k): each broken into lines in the room a
/// label column may take, and the row height those lines need.
struct RowLabels {
    /// Each label's lines.
    let lines: [[String]]
    /// The widest line, in points.
    let width: Double
    /// The height of one row: the taller of `minimumRowHeight` and the tallest label.
    let rowHeight: Double

    init(_ labels: [String], on canvas: CairoCanvas, size: Double, weight: FontWeight = .regular,
         maximumWidth: Double, minimumRowHeight: Double) {
        lines = canvas.lines(of: labels, size: size, maximumWidth: maximumWidth, weight: weight)
        width = lines.flatMap { $0 }.map { canvas.textWidth($0, size: size, weight: weight) }.max() ?? 0
        let tallest = lines.map(\.count).max() ?? 1
        rowHeight = max(minimumRowHeight, CairoCanvas.blockHeight(lines: tallest, size: size) + 10)
    }

    /// The same, measured on a scratch canvas (for a chart's size before drawing).
    static func measure(_ labels: [String], size: Double, weight: FontWeight = .regular, maximumWidth: Double,
                        minimumRowHeight: Double) -> RowLabels? {
        guard let canvas = try? CairoCanvas(width: 100, height: 10, scale: 1) else { return nil }
        return RowLabels(labels, on: canvas, size: size, weight: weight, maximumWidth: maximumWidth,
                         minimumRowHeight: minimumRowHeight)
    }
}
