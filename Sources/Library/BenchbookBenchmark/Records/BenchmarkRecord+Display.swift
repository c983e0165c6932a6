import BenchbookRuntime

extension BenchmarkRecord: NotebookDisplayable {
    /// The result's table plus where, on what and with what it ran.
    public var mimeBundle: MimeBundle {
        var provenance: [(String, String)] = []
        if let modelPath { provenance.append(("model", modelPath)) }
        if let modelSHA256 { provenance.append(("SHA-256", String(modelSHA256.prefix(16)) + "…")) }
        if !inputShape.isEmpty { provenance.append(("input shape", inputShape.map(String.init).joined(separator: " × "))) }
        if !runtime.isEmpty { provenance.append(("runtime", runtime)) }
        for (name, version) in libraryVersions.sorted(by: { $0.key < $1.key }) { provenance.append((name, version)) }
        provenance.append(("machine", "\(machine.cpuModel), \(machine.coreCount) cores, \(machine.operatingSystem)"))
        if let cellOptimization { provenance.append(("cell compiled with", cellOptimization.rawValue)) }
        if !notes.isEmpty { provenance.append(("notes", notes)) }
        let text = ([result.description] + provenance.map { "\($0.0): \($0.1)" }).joined(separator: "\n")
        var html = result.html
        html += "<table>"
        for (label, value) in provenance {
            html += "<tr><th style=\"text-align:left\">\(HTML.escape(label))</th><td style=\"text-align:left\">\(HTML.escape(value))</td></tr>"
        }
        html += "</table>"
        return MimeBundle(plainText: text).adding("text/html", html)
    }
}
