/// The project's one seeded random generator: SplitMix64 (Steele, Lea and Flood, 2014;
/// the constants of Vigna's reference `splitmix64.c`).
///
/// The same seed gives the same sequence on every machine and in every build, so what is
/// drawn from it can be reproduced: the bootstrap intervals of the benchmark figures
/// (BenchbookBenchmark), the damaged model files of `benchbook-models corrupt`, the fuzz
/// corpora of the decoder tests. A test pins its first outputs for seed 1234567 against the
/// published reference values; changing the algorithm changes every one of those figures.
///
/// Not for secrets: the state is 64 bits and the sequence is predictable from one output.
/// It conforms to `RandomNumberGenerator`, so `Int.random(in:using:)` and
/// `shuffled(using:)` take it.
///
/// Thread rules: a value type with no shared state; each thread draws from its own copy.
@frozen
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The state: the seed plus the golden-ratio increment times the outputs drawn so far.
    @usableFromInline
    var state: UInt64

    /// A generator whose first output is the reference generator's first output for `seed`.
    /// - Parameter seed: any 64-bit value; 0 is a valid seed.
    @inlinable
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` from exactly one output (Lemire's multiply-shift,
    /// without rejection: the bias is below `bound / 2⁶⁴`, under 2⁻³² for any bound below
    /// 2³²). One output per draw keeps a sequence of draws reproducible from the seed alone;
    /// `Int.random(in:using:)` may draw more than one.
    /// - Parameter bound: the exclusive upper bound, at least 1.
    @inlinable
    public mutating func next(below bound: Int) -> Int {
        Int((UInt128(next()) &* UInt128(bound)) >> 64)
    }
}
