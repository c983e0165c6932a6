/// Fitting sets of labels into the room a chart has, so that no two labels that differ come
/// out looking the same.
extension CairoCanvas {
    /// Each label shortened to `maximumWidth` by cutting its middle (the start and the end,
    /// where names usually differ, stay), then made distinct: labels that still collide get
    /// their position in the set (`#1`, `#2`) in place of more of their text. Labels that fit
    /// are unchanged.
    /// - Parameters:
    ///   - labels: the full labels.
    ///   - size: type size.
    ///   - maximumWidth: the room for each label.
    ///   - weight: font weight.
    func fittingDistinct(_ labels: [String], size: Double, maximumWidth: Double,
                         weight: FontWeight = .regular) -> [String] {
        var fitted = labels.map { middleFitting($0, size: size, maximumWidth: maximumWidth, weight: weight) }
        var groups: [String: [Int]] = [:]
        for (index, text) in fitted.enumerated() { groups[text, default: []].append(index) }
        for (_, members) in groups where members.count > 1 && Set(members.map { labels[$0] }).count > 1 {
            for (rank, index) in members.enumerated() {
                let tag = " #\(rank + 1)"
                let room = maximumWidth - textWidth(tag, size: size, weight: weight)
                fitted[index] = middleFitting(labels[index], size: size, maximumWidth: room, weight: weight) + tag
            }
        }
        return fitted
    }

    /// `text` shortened with an ellipsis in the middle until it fits.
    func middleFitting(_ text: String, size: Double, maximumWidth: Double, weight: FontWeight = .regular) -> String {
        if textWidth(text, size: size, weight: weight) <= maximumWidth { return text }
        let characters = Array(text)
        var keep = characters.count - 1
        while keep > 1 {
            let head = (keep + 1) / 2, tail = keep / 2
            let candidate = String(characters.prefix(head)) + "…" + String(characters.suffix(tail))
            if textWidth(candidate, size: size, weight: weight) <= maximumWidth { return candidate }
            keep -= 1
        }
        return fitting(text, size: size, maximumWidth: maximumWidth, weight: weight)
    }

    /// `text` broken at spaces into at most `lines` lines of `maximumWidth`; the last line is
    /// shortened in the middle when the words do not fit.
    func wrapped(_ text: String, size: Double, maximumWidth: Double, lines: Int,
                 weight: FontWeight = .regular) -> [String] {
        if textWidth(text, size: size, weight: weight) <= maximumWidth || lines <= 1 {
            return [middleFitting(text, size: size, maximumWidth: maximumWidth, weight: weight)]
        }
        var result: [String] = []
        var words = text.split(separator: " ").map(String.init)
        while !words.isEmpty && result.count < lines - 1 {
            var line = words.removeFirst()
            while let next = words.first, textWidth(line + " " + next, size: size, weight: weight) <= maximumWidth {
                line += " " + words.removeFirst()
            }
            result.append(middleFitting(line, size: size, maximumWidth: maximumWidth, weight: weight))
        }
        if !words.isEmpty {
            result.append(middleFitting(words.joined(separator: " "), size: size, maximumWidth: maximumWidth, weight: weight))
        }
        return result
    }
}
