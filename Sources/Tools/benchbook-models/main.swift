// benchbook-models: the command-line side of BenchbookModels, used by the Makefile and the
// Python test/benchmark drivers.
//
//   benchbook-models describe MODEL...
//   benchbook-models accuracy [--data DIR] [--out FILE.md] MODEL...
//   benchbook-models bench [--threads 1,2] [--runs N] [--warmup N] [--rounds N] MODEL...
//   benchbook-models threads TFLITE_MODEL...       (OS threads per XNNPACK thread count)
//   benchbook-models profile [--threads N] [--runs N] [--etdump DIR] MODEL...   (operator profiles, JSON lines;
//                                                   each .pte's ETDump to DIR/<file>.etdp)
//   benchbook-models corrupt [--count 200] [--subtle N] [--seed N] [--dir DIR] MODEL...
//   benchbook-models recipe [--data DIR] [--reference recipe.json] [--seconds S] [--out FILE.md] MODEL...
//   benchbook-models costs                 (CPU-seconds per run of a sleep and a spin, JSON)
//   benchbook-models paired < tables       (paired accuracy comparisons of 2 × 2 tables, JSON lines)
//   benchbook-models spread [--runs 5] [--pause 45] [--processes 3] [--per-process 20] [--photo P] [--out F] NAME=MODEL...
//                                          (run-to-run spread across separate runs, merged into F)
import BenchbookModels
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()

@MainActor func option(_ name: String, _ fallback: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    let value = arguments[index + 1]
    arguments.removeSubrange(index ... index + 1)
    return value
}

do {
    switch command {
    case "describe":
        for path in arguments { print(try Model(contentsOf: path)) }
    case "accuracy":
        let data = option("--data", "/usr/share/datasets/fashion-mnist")
        let out = option("--out", "")
        try AccuracyCommand.run(models: arguments, dataDirectory: data, output: out.isEmpty ? nil : out,
                                command: CommandLine.arguments.joined(separator: " "))
    case "bench":
        let threads = option("--threads", "1,2").split(separator: ",").compactMap { Int($0) }
        let runs = Int(option("--runs", "50")) ?? 50
        let warmup = Int(option("--warmup", "10")) ?? 10
        let rounds = Int(option("--rounds", "4")) ?? 4
        try BenchCommand.run(models: arguments, threads: threads, runs: runs, warmup: warmup, rounds: rounds)
    case "profile":
        let threads = Int(option("--threads", "1")) ?? 1
        let runs = Int(option("--runs", "20")) ?? 20
        let etdumps = option("--etdump", "")
        try ProfileCommand.run(models: arguments, threads: threads, runs: runs, etdumps: etdumps)
    case "threads":
        // Shows that the thread count reaches XNNPACK: its pool adds threads - 1 workers.
        for path in arguments {
            for count in [1, 2, 4] {
                let before = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
                let model = try Model(contentsOf: path, options: ModelOptions(threads: count))
                _ = try model.run([try BenchCommand.sampleInput(for: model)])
                let after = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
                print("\((path as NSString).lastPathComponent): threads \(count) -> process threads \(before) before load, \(after) after first run (+\(after - before))")
                withExtendedLifetime(model) {}
            }
        }
    case "recipe":
        let data = option("--data", "/usr/share/datasets/fashion-mnist")
        let reference = option("--reference", "")
        let seconds = Double(option("--seconds", "15")) ?? 15
        let out = option("--out", "")
        // The command as it would be typed in the checkout: the tool's path relative to it.
        let here = FileManager.default.currentDirectoryPath + "/"
        let command = CommandLine.arguments.map { $0.hasPrefix(here) ? String($0.dropFirst(here.count)) : $0 }
        try RecipeCommand.run(models: arguments, dataDirectory: data, reference: reference.isEmpty ? nil : reference,
                              seconds: seconds, output: out.isEmpty ? nil : out, command: command.joined(separator: " "))
    case "spread":
        let runs = Int(option("--runs", "5")) ?? 5
        let pause = Double(option("--pause", "45")) ?? 45
        let processes = Int(option("--processes", "3")) ?? 3
        let perProcess = Int(option("--per-process", "20")) ?? 20
        let photo = option("--photo", "notebooks/data/photos/coffee.png")
        let out = option("--out", "results/latency-spread.json")
        let here = FileManager.default.currentDirectoryPath + "/"
        let command = CommandLine.arguments.map { $0.hasPrefix(here) ? String($0.dropFirst(here.count)) : $0 }
        try SpreadCommand.run(models: arguments, photo: photo, runs: runs, pause: pause, processes: processes,
                              minimumRuns: perProcess, output: out, command: command.joined(separator: " "))
    case "costs":
        try CostsCommand.run()
    case "paired":
        try PairedCommand.run()
    case "corrupt":
        let count = Int(option("--count", "200")) ?? 200
        let seed = UInt64(option("--seed", "5")) ?? 5
        let subtle = Int(option("--subtle", "0")) ?? 0
        let directory = option("--dir", NSTemporaryDirectory() + "benchbook-corrupt-\(getpid())")
        let outcome = try CorruptCommand.run(models: arguments, count: count, subtle: subtle, seed: seed,
                                             directory: directory)
        print("corrupt files: \(count), thrown errors: \(outcome.thrown), loaded and ran: \(outcome.loadedAndRan), crashes: 0")
        if subtle > 0 { print("subtle damage: \(subtle), loaded and ran: \(outcome.subtleRan), thrown: \(subtle - outcome.subtleRan)") }
        for (damage, counts) in outcome.byDamage.sorted(by: { $0.key < $1.key }) {
            print("  \(damage): thrown \(counts.thrown), loaded and ran \(counts.ran)")
        }
    default:
        print("usage: benchbook-models describe|accuracy|bench|profile|threads|corrupt|recipe|costs|paired ... (see Sources/Tools/benchbook-models/main.swift)")
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
