/// A CPU-bound workload whose duration scales with `iterations` and that the optimiser
/// cannot remove (its result goes to ``Sink``).
@inline(never)
func spin(_ iterations: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<iterations {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        state ^= state >> 29
    }
    Sink.value = state
}

/// Where workload results go so they count as used.
enum Sink {
    nonisolated(unsafe) static var value: UInt64 = 0
}
