import BenchbookRuntime

extension BenchmarkResult: NotebookDisplayable, CustomStringConvertible {
    /// Text and an HTML table of the statistics.
    public var mimeBundle: MimeBundle {
        MimeBundle(plainText: description).adding("text/html", html)
    }

    /// The benchmark name, threads and ``summary``.
    public var description: String {
        "\(name) (\(threads) thread\(threads == 1 ? "" : "s")): \(summary)"
    }

    /// Label and value pairs, in display order.
    var rows: [(String, String)] {
        let s = statistics
        var rows: [(String, String)] = []
        if let initSeconds { rows.append(("init", DurationFormat.string(initSeconds))) }
        rows.append(("first run", DurationFormat.string(firstRunSeconds)))
        rows.append(("warm-up", "\(warmupRuns) runs, \(DurationFormat.string(warmupSeconds))"))
        rows.append(("runs", CountFormat.string(runCount) + (options.innerIterations > 1 ? " × \(options.innerIterations) calls" : "")))
        if summarisesRuns, let each = runsPerSample {
            rows.append(("samples", "\(CountFormat.string(s.count)), each the mean of \(each) runs (the sample cap)"))
        }
        rows.append(("p90 (95 % interval)", IntervalFormat.duration(p90Interval)))
        rows.append(("min", DurationFormat.string(s.minimum)))
        rows.append(("median (95 % interval)", IntervalFormat.duration(medianInterval)))
        rows.append(("intervals cover", intervalCoverage))
        rows.append(("mean ± std", "\(DurationFormat.string(s.mean)) ± \(DurationFormat.string(s.standardDeviation))"))
        rows.append(("p99", DurationFormat.string(s.p99)))
        rows.append(("max", DurationFormat.string(s.maximum)))
        if let cpu = cpuPerRun {
            rows.append(("CPU time per run (95 % interval)", IntervalFormat.duration(cpu)))
            if let coresBusy { rows.append(("cores busy", DurationFormat.fixed(coresBusy, decimals: 2))) }
        }
        if let energy { rows.append(("energy per run", energy.summary)) }
        rows.append(("peak RSS", MemoryFormat.string(peakResidentBytes)))
        if let contention { rows.append(("CPU", contention.summary)) }
        if let interleavedWith, !interleavedWith.isEmpty {
            rows.append(("measured in turns with", interleavedWith.joined(separator: ", ")))
        }
        return rows
    }

    var html: String {
        var html = "<table><caption style=\"text-align:left\"><b>\(HTML.escape(name))</b>, "
            + "\(threads) thread\(threads == 1 ? "" : "s")</caption>"
        for (label, value) in rows {
            html += "<tr><th style=\"text-align:left\">\(HTML.escape(label))</th>"
                + "<td style=\"text-align:right\">\(HTML.escape(value))</td></tr>"
        }
        if stoppedAtTimeLimit {
            html += "<tr><td colspan=\"2\"><i>stopped at the time limit before the minimum run count</i></td></tr>"
        }
        if isContended {
            html += "<tr><td colspan=\"2\"><i>\(HTML.escape(ContentionFormat.footnote))</i></td></tr>"
        }
        return html + "</table>"
    }
}

/// Escapes text for HTML.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Formats byte counts.
enum MemoryFormat {
    static func string(_ bytes: Int) -> String {
        let mebibytes = Double(bytes) / 1_048_576
        return DurationFormat.number(mebibytes) + " MiB"
    }
}
