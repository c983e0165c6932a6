import Foundation

/// Text that must fit a width is broken into lines, never shortened and never broken inside
/// a word: lines break at spaces, and a word too long for a line breaks only after one of
/// its own separators ("efficientnet_lite0_" / "int8.tflite", "T-shirt/" / "top"). A word
/// that still does not fit stays whole on a line wider than the room, and the chart changes
/// its layout instead (smaller type, rotated labels, a wider label column, more lines).
extension CairoCanvas {
    /// Characters after which a word too long for a line may break ("efficientnet_lite0_int8.ptl").
    static let breakAfter: Set<Character> = ["_", ".", "/", "-", "·", ",", ":", "→"]

    /// `text` broken into lines no wider than `maximumWidth` where it can be: at spaces, then
    /// inside a word too long for a line after `_ . / - · , : →` (never between two letters or
    /// digits, never inside a number such as "127.5"). A line is wider than `maximumWidth`
    /// only when one piece of a word is: ``fits(_:size:maximumWidth:weight:)`` tells.
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
            // A word wider than a line is filled piece by piece; a piece never breaks.
            for piece in width(word) <= maximumWidth ? [word] : Self.pieces(of: word) {
                if current.isEmpty || width(current + piece) <= maximumWidth {
                    current += piece
                } else {
                    lines.append(current)
                    current = piece
                }
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Whether every line of every label is within `maximumWidth`.
    func fits(_ lines: [[String]], size: Double, maximumWidth: Double, weight: FontWeight = .regular) -> Bool {
        lines.allSatisfy { $0.allSatisfy { textWidth($0, size: size, weight: weight) <= maximumWidth + 0.01 } }
    }

    /// The widest line of `lines` at `size`.
    func widest(_ lines: [[String]], size: Double, weight: FontWeight = .regular) -> Double {
        lines.flatMap { $0 }.map { textWidth($0, size: size, weight: weight) }.max() ?? 0
    }

    /// Labels set at the largest type size from `largest` down to `smallest` (half-point
    /// steps) at which each breaks into at most `maximumLines` lines within `maximumWidth`.
    /// When none does, the labels at `smallest`, with ``FittedLabels/fits`` false: the caller
    /// changes its layout (rotates the labels, widens their column).
    func fit(_ labels: [String], largest: Double, smallest: Double, maximumWidth: Double, maximumLines: Int = .max,
             weight: FontWeight = .regular) -> FittedLabels {
        var size = largest
        while true {
            let lines = self.lines(of: labels, size: size, maximumWidth: maximumWidth, weight: weight)
            let fits = lines.allSatisfy { $0.count <= maximumLines }
                && self.fits(lines, size: size, maximumWidth: maximumWidth, weight: weight)
            if fits || size - 0.5 < smallest - 1e-9 {
                return FittedLabels(size: size, lines: lines, fits: fits, width: widest(lines, size: size, weight: weight))
            }
            size -= 0.5
        }
    }

    /// Words with the spaces a line must not break at put back: before a unit, a closing
    /// mark or a row's ⚠ ("95 %", "12 ms", "(XNNPACK) »", "thread ⚠") and after an opening
    /// one ("« CPU").
    static func unbreakable(_ words: [String]) -> [String] {
        let gluedToPrevious: Set<String> = ["%", "»", "ms", "µs", "s", "MB", "MiB", "×", "⚠"]
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

    /// A word split where it may break: after a run of break characters ("aten::_" |
    /// "convolution"), not inside a number ("127.5"), the characters kept with the piece before.
    static func pieces(of word: String) -> [String] {
        let characters = Array(word)
        var pieces: [String] = []
        var piece = ""
        for (index, character) in characters.enumerated() {
            piece.append(character)
            guard breakAfter.contains(character), index + 1 < characters.count else { continue }
            let next = characters[index + 1]
            let insideNumber = (character == "." || character == ",") && index > 0
                && characters[index - 1].isNumber && next.isNumber
            if !breakAfter.contains(next) && !insideNumber {
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

/// Labels fitted to a room by ``CairoCanvas/fit(_:largest:smallest:maximumWidth:maximumLines:weight:)``.
struct FittedLabels {
    /// Type size.
    var size: Double
    /// Each label's lines.
    var lines: [[String]]
    /// Whether every label fits the room and line count asked for.
    var fits: Bool
    /// The widest line, in points.
    var width: Double
    /// The most lines a label takes.
    var tallest: Int { lines.map(\.count).max() ?? 1 }
}

/// Labels left of horizontal rows (bar charts, top-k, operator profiles): each broken into
/// lines in the room a label column may take, in smaller type (down to 2.5 points less)
/// when a word is wider than that room, and the column as wide as its widest line when even
/// that does not do (so the plot narrows, and no word is broken). Also the row height the
/// lines need.
struct RowLabels {
    /// Type size.
    let size: Double
    /// Each label's lines.
    let lines: [[String]]
    /// The widest line, in points: the label column's width.
    let width: Double
    /// The height of one row: the taller of `minimumRowHeight` and the tallest label.
    let rowHeight: Double

    /// How much smaller than asked the type may get before the column widens instead.
    static let shrink = 2.5

    init(_ labels: [String], on canvas: CairoCanvas, size: Double, weight: FontWeight = .regular,
         maximumWidth: Double, minimumRowHeight: Double) {
        let fitted = canvas.fit(labels, largest: size, smallest: size - Self.shrink, maximumWidth: maximumWidth, weight: weight)
        self.size = fitted.size
        lines = fitted.lines
        width = fitted.width
        rowHeight = max(minimumRowHeight, CairoCanvas.blockHeight(lines: fitted.tallest, size: fitted.size) + 10)
    }
}
