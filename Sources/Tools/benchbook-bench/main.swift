// benchbook-bench: measurements and sample files for the benchmark library.
//
//   benchbook-bench overhead [output-directory]        harness overhead figures (JSON + text)
//   benchbook-bench sample-records <output-directory>  a record and a sweep (JSON + CSV) for tests
//
// Build it in release mode for the overhead figures:
//   swift build -c release --product benchbook-bench

import BenchbookBenchmark
import Foundation

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "overhead":
    let directory = arguments.dropFirst().first ?? "results"
    try OverheadMeasurement().run(writingTo: URL(fileURLWithPath: directory, isDirectory: true))
case "sample-records":
    guard let directory = arguments.dropFirst().first else {
        FileHandle.standardError.write(Data("usage: benchbook-bench sample-records <output-directory>\n".utf8))
        exit(2)
    }
    try SampleRecords.write(to: URL(fileURLWithPath: directory, isDirectory: true))
default:
    FileHandle.standardError.write(Data("""
        usage: benchbook-bench overhead [output-directory]
               benchbook-bench sample-records <output-directory>

        """.utf8))
    exit(2)
}
