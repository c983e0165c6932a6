import BenchbookRuntime
import Testing

/// The seeded generator keeps the published SplitMix64 sequence, so the benchmark figures
/// and fuzz corpora drawn from it stay reproducible.
@Suite struct SplitMix64Tests {
    @Test func theFirstOutputsForSeed1234567AreTheReferenceValues() {
        // The reference values of Vigna's splitmix64.c for seed 1234567 (as listed on Rosetta
        // Code's "Pseudo-random numbers/Splitmix64").
        var generator = SplitMix64(seed: 1_234_567)
        #expect((0..<5).map { _ in generator.next() } == [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ])
    }

    @Test func seedZeroStartsWithTheReferenceValues() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func aDrawBelowABoundUsesOneOutputAndStaysInRange() {
        var draws = SplitMix64(seed: 7), outputs = SplitMix64(seed: 7)
        for bound in [1, 2, 3, 10, 1000, Int(UInt32.max)] {
            let draw = draws.next(below: bound)
            #expect(draw == Int((UInt128(outputs.next()) * UInt128(bound)) >> 64))
            #expect((0..<bound).contains(draw))
        }
    }

    @Test func copiesDrawTheSameSequence() {
        var first = SplitMix64(seed: 42)
        _ = first.next()
        var second = first
        #expect((0..<4).map { _ in first.next() } == (0..<4).map { _ in second.next() })
        #expect(Int.random(in: 0..<100, using: &first) == Int.random(in: 0..<100, using: &second))
    }
}
