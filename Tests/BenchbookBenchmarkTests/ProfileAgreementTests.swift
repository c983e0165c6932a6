import BenchbookBenchmark
import Testing

/// A profile's headline sets each operator's time per run against the same statistic of the
/// whole run, so that no part reads larger than the whole it belongs to.
@Suite struct ProfileAgreementTests {
    @Test func partsAndWholeAreMeansSoNoPartExceedsTheRun() {
        // Five runs of 10 ms and one of 100 ms (a run that waited for a core): one operator takes 90 % of each.
        let runs: [Double] = [0.010, 0.010, 0.010, 0.010, 0.010, 0.100]
        let convolution = runs.reduce(0, +) * 0.9
        let profile = OperatorProfile(
            title: "m", runtime: "r", threads: 1,
            operators: [OperatorProfile.Operator(kind: "conv", name: "#0", implementation: nil, calls: 6,
                                                 totalSeconds: convolution, share: 0.9),
                        OperatorProfile.Operator(kind: "add", name: "#1", implementation: nil, calls: 6,
                                                 totalSeconds: runs.reduce(0, +) * 0.1, share: 0.1)],
            runSeconds: runs, operatorSecondsPerRun: runs, allCalls: [:])
        let perRun = convolution / Double(profile.runs)
        // The median run (10 ms) is smaller than the operator's mean time per run (22.5 ms)...
        #expect(profile.runMedian.estimate < perRun)
        // ...so the headline states means: the operator's 22.5 ms is part of a 25 ms run.
        #expect(abs(profile.runMean - 0.025) < 1e-12 && abs(profile.operatorMean - 0.025) < 1e-12)
        #expect(perRun <= profile.operatorMean)
        #expect(profile.agreement.hasPrefix("operators 25.0 ms per run against 25.0 ms measured (means of 6 runs"), "\(profile.agreement)")
    }

    @Test func secondsPerRunSumsTheOperatorsOfOneLabelOrKindOverTheRuns() {
        let profile = OperatorProfile(
            title: "m", runtime: "r", threads: 1,
            operators: [OperatorProfile.Operator(kind: "conv", name: "#0", implementation: "IGEMM", calls: 4,
                                                 totalSeconds: 0.008, share: 0.4),
                        OperatorProfile.Operator(kind: "conv", name: "#1", implementation: nil, calls: 4,
                                                 totalSeconds: 0.004, share: 0.2),
                        OperatorProfile.Operator(kind: "add", name: "#2", implementation: nil, calls: 4,
                                                 totalSeconds: 0.002, share: 0.1)],
            runSeconds: [0.005, 0.005, 0.005, 0.005], operatorSecondsPerRun: [0.0035, 0.0035, 0.0035, 0.0035], allCalls: [:])
        // By kind: both convolutions, 12 ms over 4 runs; by label: only the one its implementation names.
        #expect(abs(profile.secondsPerRun("conv") - 0.003) < 1e-12)
        #expect(abs(profile.secondsPerRun("conv → IGEMM") - 0.002) < 1e-12)
        #expect(abs(profile.secondsPerRun("add") - 0.0005) < 1e-12)
        #expect(profile.secondsPerRun("softmax") == 0)
        let empty = OperatorProfile(title: "m", runtime: "r", threads: 1, operators: profile.operators, runSeconds: [],
                                    operatorSecondsPerRun: [], allCalls: [:])
        #expect(empty.secondsPerRun("conv") == 0)
    }
}
