import BenchbookRuntime

extension OperatorProfile: NotebookDisplayable, CustomStringConvertible {
    /// The summary line and a table of the entries with the most time (HTML and text).
    public var mimeBundle: MimeBundle { MimeBundle(plainText: description).adding("text/html", html) }

    /// How the operators' total compares with the measured time, for example "operators
    /// 18.7 ms per run against 19.1 ms measured (means of 20 runs, as each operator's time per
    /// run is; the operators cover 98 % of a run, within 15 %)". Means, so that no operator's
    /// time per run can exceed the run it is part of.
    public var agreement: String {
        let within = isComplete ? "within" : "not within"
        var text = "operators \(DurationFormat.string(operatorMean)) per run against \(DurationFormat.string(runMean)) "
            + "measured (means of \(runs) runs, as each operator's time per run is; the operators cover "
            + "\(DurationFormat.fixed(coverage * 100, decimals: 0)) % of a run, "
            + "\(within) \(DurationFormat.fixed(Self.agreementTolerance * 100, decimals: 0)) %)"
        if contention?.isContended == true { text += "; ⚠ contended: other work took cores these threads needed" }
        return text
    }

    /// The title line, the agreement and the top entries as aligned text.
    public var description: String {
        var lines = ["\(title), \(threads) thread\(threads == 1 ? "" : "s"), \(runtime): \(agreement)"]
        for entry in shownEntries {
            lines.append("  \(DurationFormat.fixed(entry.share * 100, decimals: 1).leftPadded(5)) %  "
                + "\(DurationFormat.string(entry.totalSeconds / Double(max(runs, 1))).leftPadded(9)) per run  "
                + "\(entry.calls / max(runs, 1))×  \(entry.label)  \(entry.name)")
        }
        return lines.joined(separator: "\n")
    }

    /// The 12 operators with the most time (the rest summed), then the runtime steps.
    var shownEntries: [Operator] { top(12) + operators.filter(\.isRuntimeStep) }

    var html: String {
        var html = "<table><caption style=\"text-align:left\"><b>\(HTML.escape(title))</b>, \(threads) thread\(threads == 1 ? "" : "s"), "
            + "\(HTML.escape(runtime)): \(HTML.escape(agreement))</caption><tr><th style=\"text-align:left\">operator</th>"
            + "<th style=\"text-align:left\">which</th><th>calls per run</th><th>mean per call</th><th>per run</th><th>share</th></tr>"
        for entry in shownEntries {
            let cells = [entry.label + (entry.isRuntimeStep ? " (runtime step)" : ""), entry.name,
                         DurationFormat.number(Double(entry.calls) / Double(max(runs, 1))),
                         DurationFormat.string(entry.meanSeconds),
                         DurationFormat.string(entry.totalSeconds / Double(max(runs, 1))),
                         DurationFormat.fixed(entry.share * 100, decimals: 1) + " %"]
            html += "<tr>" + cells.enumerated().map { index, cell in
                "<td style=\"text-align:\(index < 2 ? "left" : "right")\">\(HTML.escape(cell))</td>"
            }.joined() + "</tr>"
        }
        return html + "</table>"
    }
}

extension String {
    /// The text with spaces in front up to `width` characters.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
