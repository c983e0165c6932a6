import BenchbookRuntime

/// A progress line for long benchmarks, shown after the first second and updated in place
/// at most twice a second, so short benchmarks show nothing and long ones cost nothing
/// measurable.
struct ProgressLine {
    let name: String
    let enabled: Bool
    private var handle: DisplayHandle?
    private var nextCheck: UInt64 = 0
    private let startedAt = monotonicNanoseconds()

    private static let quietNanoseconds: UInt64 = 1_000_000_000
    private static let intervalNanoseconds: UInt64 = 500_000_000

    init(name: String, enabled: Bool) {
        self.name = name
        self.enabled = enabled
        self.nextCheck = startedAt &+ Self.quietNanoseconds
    }

    /// Called after each run; cheap unless an update is due.
    @inline(__always)
    mutating func tick(phase: String, runs: Int, since start: UInt64) {
        guard enabled else { return }
        let now = monotonicNanoseconds()
        guard now >= nextCheck else { return }
        nextCheck = now &+ Self.intervalNanoseconds
        let text = "\(name): \(phase), \(runs) runs in \(DurationFormat.string(seconds(now &- start)))"
        if let handle {
            handle.update(text)
        } else {
            handle = DisplayHandle(showing: text)
        }
    }

    /// Shows `text` after the name at once (for steps that each take seconds, such as one
    /// worker process), replacing the line shown before.
    mutating func show(_ text: String) {
        guard enabled else { return }
        let line = "\(name): \(text)"
        if let handle { handle.update(line) } else { handle = DisplayHandle(showing: line) }
    }

    /// Replaces the progress line with a one-line summary (only when one was shown).
    func finish(_ result: BenchmarkResult) {
        finish("done, \(result.summary)")
    }

    /// Replaces the progress line with `text` after the name (only when one was shown).
    func finish(_ text: String) {
        handle?.update("\(name): \(text)")
    }
}
