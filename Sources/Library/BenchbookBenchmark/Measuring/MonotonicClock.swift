import Foundation

/// Reads the monotonic clock in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`, a vDSO call
/// on Linux, cheap (results/benchmark-overhead.txt has the harness's overhead) and never
/// going back when the wall clock is set).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// Converts a nanosecond interval to seconds.
@inline(__always)
func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) * 1e-9 }
