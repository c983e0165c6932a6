// benchbook-message-bench: what the messages of one cell cost between the kernel and its
// cell parser and cell compiler, through JSONCore (HelperProtocol) against the Foundation
// JSONEncoder/JSONDecoder Codable records they replaced (OldRecords.swift), in the same run.
//
//   benchbook-message-bench <Tests/Corpus> <results/helper-messages.md>   (make bench-messages)
//
// For each cell of the Swift corpus: the parser's request and answer (the cell's analysis) and
// the compiler's request (48 arguments) and answer, each written as one side writes it and read
// as the other reads it. Rounds alternate the two ways; the first two rounds are warm-up. The
// figures are the medians over the rounds of the mean per cell.

import CellParsing
import CellSource
import Foundation
import HelperProtocol

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: benchbook-message-bench <corpus directory> <output .md>\n".utf8))
    exit(2)
}
let corpus = URL(fileURLWithPath: arguments[1], isDirectory: true)
let files = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
let cells = files.flatMap { file -> [String] in
    let text = (try? String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8)) ?? ""
    return text.components(separatedBy: "//% cell\n").dropFirst().map { $0 }
}
guard !cells.isEmpty else {
    FileHandle.standardError.write(Data("no cells (\"//% cell\" lines) in \(corpus.path)/*.swift\n".utf8))
    exit(1)
}
let analyses = cells.map { CellAnalysis(parsing: $0) }
let compilerArguments = (0..<48).map { "-argument-\($0)=/work/notebook/.build/cells/Cell\($0).swiftmodule" }

/// One cell's four messages through JSONCore; returns the bytes sent.
func throughJSONCore(_ index: Int) throws -> Int {
    let request = ParserRequest.analyze(source: cells[index], bindingsAreLocal: false, marksTypes: true).payload
    let answer = ParserResponse.analysis(analyses[index]).payload
    let compile = CompileRequest(arguments: compilerArguments).payload
    let compiled = CompileResponse.succeeded.payload
    guard case .analyze = try ParserRequest(payload: request), case .analysis(let read) = try ParserResponse(payload: answer),
          read.items.count == analyses[index].items.count else { throw CocoaError(.coderInvalidValue) }
    _ = try CompileRequest(payload: compile)
    _ = try CompileResponse(payload: compiled)
    return request.count + answer.count + compile.count + compiled.count
}

/// The same through the Codable records and Foundation's coders; returns the bytes sent.
func throughCodable(_ index: Int) throws -> Int {
    let request = try JSONEncoder().encode(OldParserRequest.analyze(source: cells[index], bindingsAreLocal: false, marksTypes: true))
    let answer = try JSONEncoder().encode(OldParserResponse.analysis(OldAnalysis(analyses[index])))
    let compile = try JSONEncoder().encode(OldCompileRequest(arguments: compilerArguments))
    let compiled = try JSONEncoder().encode(OldCompileResponse.succeeded)
    guard case .analyze = try JSONDecoder().decode(OldParserRequest.self, from: request),
          case .analysis(let read) = try JSONDecoder().decode(OldParserResponse.self, from: answer),
          read.items.count == analyses[index].items.count else { throw CocoaError(.coderInvalidValue) }
    _ = try JSONDecoder().decode(OldCompileRequest.self, from: compile)
    _ = try JSONDecoder().decode(OldCompileResponse.self, from: compiled)
    return request.count + answer.count + compile.count + compiled.count
}

let rounds = 22
var perCell: [String: [Double]] = ["JSONCore": [], "Codable": []]
var bytes: [String: Int] = [:]
for round in 0..<rounds {
    for (name, way) in (round % 2 == 0 ? [("JSONCore", throughJSONCore), ("Codable", throughCodable)]
                                        : [("Codable", throughCodable), ("JSONCore", throughJSONCore)]) {
        let start = DispatchTime.now().uptimeNanoseconds
        var sent = 0
        for index in cells.indices { sent += try way(index) }
        let micro = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(cells.count)
        bytes[name] = sent
        if round >= 2 { perCell[name]!.append(micro) }
    }
}
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
let core = median(perCell["JSONCore"]!), codable = median(perCell["Codable"]!)
let ratios = zip(perCell["Codable"]!, perCell["JSONCore"]!).map { $0 / $1 }.sorted()
var load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
let measured = rounds - 2
let report = """
# The messages of one cell: JSONCore against the Codable records

`make bench-messages` (`benchbook-message-bench Tests/Corpus results/helper-messages.md`, release build).
For each of the \(cells.count) cells of the Swift corpus (`Tests/Corpus/*.swift`): the cell parser's request
and answer (the cell's analysis) and the cell compiler's request (48 arguments) and answer, each written
as one process writes it and read as the other reads it; the two ways alternate in \(measured) measured rounds
(after 2 warm-up rounds), and each figure is the median over the rounds of the mean per cell.

| messages of one cell | median per cell | bytes per cell |
|---|---|---|
| JSONCore (`HelperProtocol`, now) | \(String(format: "%.1f", core)) µs | \(bytes["JSONCore"]! / cells.count) |
| Foundation `JSONEncoder`/`JSONDecoder`, Codable records (before) | \(String(format: "%.1f", codable)) µs | \(bytes["Codable"]! / cells.count) |

Codable ÷ JSONCore: \(String(format: "%.2f", codable / core))× (round by round from \(String(format: "%.2f", ratios.first!))× to \(String(format: "%.2f", ratios.last!))×, \(measured) rounds).
Load average (1, 5, 15 min) at the end of the run: \(load); \(ProcessInfo.processInfo.activeProcessorCount) cores.

"""
try report.write(toFile: arguments[2], atomically: true, encoding: .utf8)
print(report, terminator: "")
