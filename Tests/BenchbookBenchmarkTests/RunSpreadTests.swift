@testable import BenchbookBenchmark
import BenchbookRuntime
import Foundation
import Testing

/// The run-to-run spread and the four ways a run can relate to an earlier one: in turns,
/// apart with a measured spread, apart with none measured, on another processor.
@Suite struct RunSpreadTests {
    static let machine = MachineDescription(cpuModel: "Test CPU A", coreCount: 2, operatingSystem: "test", architecture: "x86_64")
    static func interval(_ estimate: Double, _ lower: Double, _ upper: Double) -> ConfidenceInterval {
        ConfidenceInterval(estimate: estimate, lower: lower, upper: upper)
    }

    static func spread(_ figures: [RunSpread.Figure], cpu: String = "Test CPU A") -> RunSpread {
        var machine = Self.machine
        machine.cpuModel = cpu
        return RunSpread(machine: machine, date: Date(timeIntervalSince1970: 0), pauseSeconds: 30, processes: 3,
                         figures: figures, command: "make bench-spread", loadAverages: [1, 1])
    }

    @Test func theBandIsTheNinetyFivePercentLimitOfTwoRunsRatio() {
        // Two figures, 3 runs each; logs spread by a known amount.
        let a = [0.010, 0.0103, 0.0098], b = [0.020, 0.0195, 0.0206]
        let spread = Self.spread([RunSpread.Figure(name: "a", medians: a), RunSpread.Figure(name: "b", medians: b)])
        var squares = 0.0
        for figure in [a, b] {
            let logs = figure.map { log($0) }, mean = logs.reduce(0, +) / 3
            squares += logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        }
        let s = (squares / 4).squareRoot()
        #expect(abs(spread.band - (exp(2.776445105 * 2.0.squareRoot() * s) - 1)) < 1e-9)
        #expect(spread.runs == 3)
        #expect(abs(spread.figures[0].range - (0.0103 / 0.0098 - 1)) < 1e-12)
        #expect(Self.spread([RunSpread.Figure(name: "one run", medians: [0.01])]).band.isNaN)
    }

    @Test func aSpreadFileKeepsOneRecordPerProcessor() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spread-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let figures = [RunSpread.Figure(name: "a", medians: [0.010, 0.011])]
        try Self.spread(figures).merge(into: url)
        try Self.spread(figures, cpu: "Test CPU B").merge(into: url)
        try Self.spread([RunSpread.Figure(name: "a", medians: [0.010, 0.0101])]).merge(into: url)
        let loaded = try RunSpread.load(from: url)
        #expect(loaded.map(\.machine.cpuModel) == ["Test CPU B", "Test CPU A"])
        #expect(loaded[1].figures[0].medians == [0.010, 0.0101])
        try Data("[1]".utf8).write(to: url)
        #expect(throws: BenchmarkError.self) { try RunSpread.load(from: url) }
    }

    @Test func relationsFollowTheProcessorsAndWhetherASpreadWasMeasured() {
        let spreads = [Self.spread([RunSpread.Figure(name: "a", medians: [0.010, 0.0104, 0.0099])])]
        #expect(RunRelation.between(current: "Test CPU A", earlier: "Test CPU A", spreads: spreads) == .apart(spreads[0].summary))
        #expect(RunRelation.between(current: "Test CPU A", earlier: "Test CPU A", spreads: []) == .apartUnmeasured(processor: "Test CPU A"))
        #expect(RunRelation.between(current: "Test CPU A", earlier: "Test CPU B", spreads: spreads)
                == .otherProcessor(current: "Test CPU A", earlier: "Test CPU B"))
    }

    @Test func apartADifferenceMustClearTheMeasuredSpread() {
        let band = RunSpread.Band(band: 0.08, runs: 5, cpuModel: "Test CPU A")
        let rule = VerdictRule(relation: .apart(band))
        #expect(rule.band == 0.08)
        #expect(rule.verdict(for: Self.interval(1.12, 1.09, 1.15)) == .slower)
        #expect(rule.verdict(for: Self.interval(1.07, 1.05, 1.09)) == .undecided)   // clears ±5 %, not ±8 %
        #expect(rule.verdict(for: Self.interval(1.00, 0.95, 1.06)) == .equivalent)
        #expect(rule.verdict(for: Self.interval(0.85, 0.80, 0.90)) == .faster)
        // A spread narrower than the equivalence band: the equivalence band is the floor.
        #expect(VerdictRule(relation: .apart(RunSpread.Band(band: 0.02, runs: 5, cpuModel: "x"))).band == 0.05)
        // In turns: no band but 1.
        #expect(VerdictRule(relation: .together).verdict(for: Self.interval(1.03, 1.01, 1.05)) == .slower)
    }

    @Test func unmeasuredOrAnotherProcessorIsUndecidedAndSaysWhy() {
        let far = Self.interval(2.21, 2.10, 2.30)
        let unmeasured = BenchmarkComparison(baselineName: "the earlier run", baseline: [1, 1.01, 0.99, 1.0],
                                             candidateName: "this run", candidate: [2, 2.01, 1.99, 2.0])
            .judged(as: .apartUnmeasured(processor: "Test CPU A"))
        #expect(unmeasured.verdict == .undecided)
        #expect(unmeasured.runsToDecide == nil)
        #expect(unmeasured.phrase().contains("no run-to-run spread measured for this processor, Test CPU A"))
        #expect(unmeasured.phrase().contains("make bench-spread"))
        let other = VerdictRule(relation: .otherProcessor(current: "Intel(R) Xeon(R)", earlier: "AMD EPYC"))
        #expect(other.verdict(for: far) == .undecided)
        #expect(!other.undecidedReason(far).contains("drift band"))
        #expect(other.undecidedReason(far).hasPrefix("the processors differ, so this is not drift"))
        #expect(other.undecidedReason(far).hasSuffix("this run on Intel(R) Xeon(R), the earlier run on AMD EPYC"))
    }

    @Test func aClearedSpreadIsNamedInThePhrase() {
        let processes = (0..<5).map { i in [0.010, 0.0101, 0.0099].map { $0 * (1 + 0.002 * Double(i)) } }
        let slower = processes.map { $0.map { $0 * 1.3 } }
        let comparison = BenchmarkComparison(baselineName: "the earlier run", baselineProcesses: processes,
                                             candidateName: "this run", candidateProcesses: slower, inTurns: false,
                                             relation: .apart(RunSpread.Band(band: 0.08, runs: 5, cpuModel: "Test CPU A")))
        #expect(comparison.verdict == .slower)
        #expect(comparison.processes == 5)
        let phrase = comparison.phrase()
        #expect(phrase.contains("measured apart, clear of the ±8 % run-to-run spread measured on this processor"))
        #expect(phrase.contains("interval across 5 processes"))
    }
}
