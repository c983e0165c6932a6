/// Per-run measurements (nanoseconds of wall or CPU time, microjoules) kept as at most
/// `capacity` samples: each sample is the sum of `runsPerSample` consecutive runs. When
/// `capacity` samples are kept, neighbours are summed two by two and `runsPerSample`
/// doubles, so memory stays bounded however fast the runs (the sample cap,
/// ``BenchmarkOptions/maximumSamples``).
///
/// A group that is not full yet is not a sample: the measuring loops end between groups.
/// Groups that are given one value per run, from the first run on, close and merge in the
/// same runs, so a run's wall time, CPU time and energy stay in samples of the same index.
struct SampleGroups {
    let capacity: Int
    private(set) var sums: [UInt64] = []
    private(set) var runsPerSample = 1
    private var pending: UInt64 = 0
    private var pendingRuns = 0

    /// - Parameter maximumSamples: the cap; rounded down to an even count (neighbours pair
    ///   up), at least 2.
    init(maximumSamples: Int) {
        capacity = max(2, maximumSamples & ~1)
        sums.reserveCapacity(min(capacity, 1024))
    }

    /// The runs the samples hold.
    var runs: Int { sums.count * runsPerSample }

    /// Adds one run's value; true when it completed a sample.
    mutating func add(_ value: UInt64) -> Bool {
        pending &+= value
        pendingRuns += 1
        guard pendingRuns == runsPerSample else { return false }
        sums.append(pending)
        pending = 0
        pendingRuns = 0
        if sums.count >= capacity {
            sums = stride(from: 0, to: sums.count - 1, by: 2).map { sums[$0] &+ sums[$0 + 1] }
            runsPerSample *= 2
        }
        return true
    }

    /// Each sample's mean per run, times `scale` (for example 1e-9 for nanoseconds to seconds).
    func means(scale: Double) -> [Double] {
        let factor = scale / Double(runsPerSample)
        return sums.map { Double($0) * factor }
    }
}
