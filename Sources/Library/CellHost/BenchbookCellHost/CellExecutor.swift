import Foundation

/// Runs a cell's async work on the cell's own thread.
///
/// A cell whose top-level code uses `await` runs as a task that prefers this executor: the
/// cell's thread runs its jobs until the task finishes, so the cell's async code needs no
/// thread of the global pool (and keeps working in a forked copy of the host, where the
/// global pool's threads do not exist). Child tasks (`async let`, task groups) inherit the
/// preference; `Task.sleep` and code that hops to other executors still use the global pool.
///
/// Thread rules: ``enqueue(_:)`` and ``finish(_:)`` from any thread; ``run()`` on the
/// cell's thread, once.
final class CellExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Records the task's end (with `storing` run under the lock, so ``run()`` sees it).
    func finish(_ storing: () -> Void) {
        condition.lock()
        storing()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs until the task has finished and no job is left.
    func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
