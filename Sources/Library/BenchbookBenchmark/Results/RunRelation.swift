/// How a run relates to the one it is compared with, which decides the band a difference
/// must clear (``VerdictRule``).
public enum RunRelation: Sendable, Equatable, Codable {
    /// Measured in turns (A B A B …, in the same processes or process rounds): both sides share
    /// every drift of the machine, so a difference needs only to clear 1.
    case together
    /// Separate runs on the same processor model, whose run-to-run spread was measured
    /// (`make bench-spread`): a difference must clear that spread.
    case apart(RunSpread.Band)
    /// Separate runs on a processor whose run-to-run spread was never measured: undecided,
    /// and the verdict says so (no band is assumed).
    case apartUnmeasured(processor: String)
    /// Separate runs on different processor models: the difference is the processors' as
    /// much as anything else, so it is never called drift; undecided.
    case otherProcessor(current: String, earlier: String)

    /// The relation of a run on `current` to an earlier run on `earlier`, given the measured
    /// spreads (one per processor model).
    /// - Parameters:
    ///   - current: this run's processor model.
    ///   - earlier: the earlier run's processor model.
    ///   - spreads: the measured run-to-run spreads (``RunSpread/published(in:)``).
    public static func between(current: String, earlier: String, spreads: [RunSpread]) -> RunRelation {
        guard current == earlier else { return .otherProcessor(current: current, earlier: earlier) }
        guard let spread = spreads.last(where: { $0.machine.cpuModel == current }) else {
            return .apartUnmeasured(processor: current)
        }
        return .apart(spread.summary)
    }
}
