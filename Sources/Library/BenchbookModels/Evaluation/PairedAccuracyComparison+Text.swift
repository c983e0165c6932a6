import BenchbookBenchmark
import BenchbookRuntime
import Foundation

/// The comparison in words. Every phrase carries its paired interval, McNemar's p and the
/// discordant counts in one parenthesis, which `scripts/notebooks/check_claims.py` reads back
/// and checks (the verdict against the interval and p, p against the counts):
///
/// - "0.42 points higher than B (paired difference +0.42 points, 95 % interval +0.21 to +0.63
///   points; McNemar's exact p = 0.0003; discordant images: 61 right only with A, 19 only with B)"
///   (and *lower*)
/// - "equivalent to B within ±0.5 points (paired difference …)"
/// - "undecided against B, band ±0.5 points (paired difference …; the interval includes 0 and
///   reaches outside the band; roughly 40,000 images instead of 10,000 would decide it, …)"
extension PairedAccuracyComparison {
    /// The comparison as a clause naming the baseline, for a table cell whose row names the candidate.
    /// - Parameter baseline: how to name the baseline; ``baselineName`` when nil.
    public func phrase(than baseline: String? = nil) -> String {
        let other = baseline ?? baselineName
        return clause(candidateName, other)
    }

    /// The comparison as a sentence naming both sides, for example "int8 scores 0.42 points
    /// higher than float (paired difference …)." or "int8 and float are equivalent in accuracy
    /// within ±0.5 points (…)." or "int8 against float: undecided, band ±0.5 points (…)."
    /// - Parameters:
    ///   - candidate: how to name the candidate; ``candidateName`` when nil.
    ///   - baseline: how to name the baseline; ``baselineName`` when nil.
    public func sentence(_ candidate: String? = nil, than baseline: String? = nil) -> String {
        let subject = candidate ?? candidateName, other = baseline ?? baselineName
        switch verdict {
        case .higher, .lower:
            return "\(subject) scores \(clause(subject, other))."
        case .equivalent:
            return "\(subject) and \(other) are equivalent in accuracy within \(bandText) \(details(subject, other))."
        case .undecided:
            return "\(subject) against \(other): undecided, band \(bandText) \(details(subject, other))."
        }
    }

    /// The verdict clause with its parenthesis.
    private func clause(_ subject: String, _ other: String) -> String {
        switch verdict {
        case .higher, .lower:
            return "\(DurationFormat.fixed(abs(difference.estimate) * 100, decimals: pointDigits)) points \(verdict.rawValue) "
                + "than \(other) \(details(subject, other))"
        case .equivalent:
            return "equivalent to \(other) within \(bandText) \(details(subject, other))"
        case .undecided:
            return "undecided against \(other), band \(bandText) \(details(subject, other))"
        }
    }

    /// "(paired difference +0.42 points, 95 % interval +0.21 to +0.63 points; McNemar's exact
    /// p = 0.0003; discordant images: 61 right only with A, 19 only with B)", and for an
    /// undecided verdict its reason and what would decide it.
    private func details(_ subject: String, _ other: String) -> String {
        let points = [difference.estimate, difference.lower, difference.upper].map { $0 * 100 }
        let digits = pointDigits
        var text = "(paired difference \(Self.signed(points[0], decimals: digits)) points, \(difference.levelText) interval "
            + "\(Self.signed(points[1], decimals: digits)) to \(Self.signed(points[2], decimals: digits)) points; "
            + "McNemar's exact \(pValueText); discordant images: \(Self.grouped(onlyCandidateRight)) right only with \(subject), "
            + "\(Self.grouped(onlyBaselineRight)) only with \(other)"
        if let reason = undecidedReason {
            text += "; " + reason
            if let needed = imagesToDecide {
                text += needed > 100 * count
                    ? "; over 100 times as many images as these \(Self.grouped(count)) would be needed to decide it"
                    : "; roughly \(Self.grouped(Self.twoSignificantFigures(needed))) images instead of \(Self.grouped(count)) "
                        + "would decide it, if the difference and the share of discordant images stayed as they are"
            }
        }
        return text + ")"
    }

    /// The decimals the difference and its bounds are printed with, in points.
    private var pointDigits: Int {
        Self.decimals([difference.estimate, difference.lower, difference.upper].map { $0 * 100 },
                      edges: [0, equivalenceBand, -equivalenceBand])
    }

    /// "p = 0.0312", "p < 0.0001"; more decimals where four would print a p below 0.05 as 0.0500.
    public var pValueText: String {
        let p = mcNemarPValue
        if p < 0.0001 { return "p < 0.0001" }
        var places = 4
        while places < 8, p != Self.significanceLevel,
              DurationFormat.fixed(p, decimals: places) == DurationFormat.fixed(Self.significanceLevel, decimals: places) {
            places += 1
        }
        return "p = " + DurationFormat.fixed(p, decimals: places)
    }

    /// The band as text: "±0.5 points", "±1 point".
    public var bandText: String {
        var text = DurationFormat.fixed(equivalenceBand, decimals: 4)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return "±\(text) point\(equivalenceBand == 1 ? "" : "s")"
    }

    /// Points with their sign, "+0.42", "−0.15", or "0.00" for zero.
    static func signed(_ points: Double, decimals: Int) -> String {
        let text = DurationFormat.fixed(abs(points), decimals: decimals)
        guard text.contains(where: { $0 != "0" && $0 != "." }) else { return text }
        return (points < 0 ? "−" : "+") + text
    }

    /// Two decimals, more (up to six) while a value that is not an edge (0 or the band's
    /// edges) would print as one, so a bound that clears an edge never reads as on it.
    static func decimals(_ values: [Double], edges: [Double]) -> Int {
        var places = 2
        while places < 6, values.contains(where: { value in
            edges.contains { edge in value != edge && DurationFormat.fixed(value, decimals: places) == DurationFormat.fixed(edge, decimals: places) }
        }) {
            places += 1
        }
        return places
    }

    /// A count with its digits grouped in threes: "10,000".
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// `value` rounded up to two significant figures (a projection, not a count).
    static func twoSignificantFigures(_ value: Int) -> Int {
        var scale = 1
        while value / scale >= 100 { scale *= 10 }
        return (value + scale - 1) / scale * scale
    }
}

extension PairedAccuracyComparison: CustomStringConvertible, NotebookDisplayable {
    /// The 2 × 2 table of right and wrong, both accuracies, the ``sentence(_:than:)`` and the agreement.
    public var description: String {
        let rows = [("", "\(baselineName) right", "\(baselineName) wrong"),
                    ("\(candidateName) right", Self.grouped(bothRight), Self.grouped(onlyCandidateRight)),
                    ("\(candidateName) wrong", Self.grouped(onlyBaselineRight), Self.grouped(bothWrong))]
        let first = rows.map(\.0.count).max()!, second = rows.map(\.1.count).max()!, third = rows.map(\.2.count).max()!
        var lines = ["\(candidateName) against \(baselineName) on the same \(Self.grouped(count)) images, image by image:"]
        for row in rows {
            lines.append(row.0.padding(toLength: first, withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: second - row.1.count) + row.1 + "  "
                + String(repeating: " ", count: third - row.2.count) + row.2)
        }
        lines.append("accuracy: \(candidateName) \(DurationFormat.fixed(candidateAccuracy * 100, decimals: 2)) %, "
            + "\(baselineName) \(DurationFormat.fixed(baselineAccuracy * 100, decimals: 2)) %")
        lines.append(sentence())
        if let agreement { lines.append(agreement.sentence) }
        return lines.joined(separator: "\n")
    }

    /// Plain text, and HTML with the 2 × 2 table.
    public var mimeBundle: MimeBundle {
        let a = HTML.escape(candidateName), b = HTML.escape(baselineName)
        /// A right-aligned count cell, shaded when discordant.
        func cell(_ value: Int, discordant: Bool) -> String {
            "<td style=\"text-align:right\(discordant ? ";background:rgb(255,236,200)" : "")\">\(Self.grouped(value))</td>"
        }
        var html = "<p><b>\(a)</b> against <b>\(b)</b> on the same \(Self.grouped(count)) images, image by image "
            + "(shaded: the discordant images, which decide the comparison)</p>"
        html += "<table><tr><th></th><th>\(b) right</th><th>\(b) wrong</th></tr>"
        html += "<tr><th>\(a) right</th>\(cell(bothRight, discordant: false))\(cell(onlyCandidateRight, discordant: true))</tr>"
        html += "<tr><th>\(a) wrong</th>\(cell(onlyBaselineRight, discordant: true))\(cell(bothWrong, discordant: false))</tr></table>"
        html += "<p>accuracy: \(a) \(DurationFormat.fixed(candidateAccuracy * 100, decimals: 2)) %, "
            + "\(b) \(DurationFormat.fixed(baselineAccuracy * 100, decimals: 2)) %<br>\(HTML.escape(sentence()))"
        if let agreement { html += "<br>\(HTML.escape(agreement.sentence))" }
        html += "</p>"
        return MimeBundle(plainText: description).adding("text/html", html)
    }
}
