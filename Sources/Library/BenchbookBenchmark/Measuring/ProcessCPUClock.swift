import Foundation

/// CPU time of this process, all its threads, user and system together: Linux's
/// `CLOCK_PROCESS_CPUTIME_ID`, in nanoseconds.
///
/// A benchmark reads it around every measured run, outside the wall-clock window, so a
/// run's CPU time includes what the runtime's worker threads spent on it (XNNPACK's and
/// libtorch's pools are threads of this process). The kernel adds a thread's time to the sum
/// when it is switched out or at a scheduler tick, so one run's figure can be off by up to a
/// tick's worth of another running thread's time; over many runs those errors cancel (each
/// run's end is the next run's start within microseconds), which makes the mean exact and
/// the single values noisy. Threads of this process that are busy with something else
/// during the runs (a progress line, a widget callback) are counted too.
enum ProcessCPUClock {
    /// The process's CPU time so far; 0 when the clock cannot be read (never on Linux).
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
