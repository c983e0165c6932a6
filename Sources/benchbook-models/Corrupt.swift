import BenchbookModels
import BenchbookTensor
import Foundation

/// `corrupt`: damages model files in many ways, loads each damaged copy in this process and
/// reports whether it threw, or loaded and ran. A crash ends the process (the test fails).
enum CorruptCommand {
    /// How one copy was damaged. All of these break the file's structure. Flipping bytes
    /// deep inside stored weights is not among them: neither format checksums its weights
    /// (libtorch does not check the zip CRCs, FlatBuffers have none), so such a file loads
    /// and runs with different numbers; `--weight-flips N` reports those separately.
    enum Damage: CaseIterable {
        case truncate, flipHeader, zeroRange, garbageAfterMagic
    }

    struct Outcome {
        var thrown = 0
        var loadedAndRan = 0
        var weightFlipsRan = 0
        var byDamage: [String: (thrown: Int, ran: Int)] = [:]
    }

    /// Flips 32 random bytes anywhere in the file (mostly inside weights).
    static func flipAnywhere(_ original: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        var bytes = original
        for _ in 0..<32 { bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
        return bytes
    }

    static func run(models: [String], count: Int, weightFlips: Int = 0, seed: UInt64, directory: String) throws -> Outcome {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var generator = SplitMix(seed: seed)
        var outcome = Outcome()
        for index in 0 ..< count + weightFlips {
            let source = models[index % models.count]
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
            let damage = index < count ? "\(Damage.allCases[(index / models.count) % Damage.allCases.count])" : "weightFlips"
            let bytes = index < count
                ? damaged(original, Damage.allCases[(index / models.count) % Damage.allCases.count], &generator)
                : flipAnywhere(original, &generator)
            let path = "\(directory)/\(index)-\(damage)-\((source as NSString).lastPathComponent)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let model = try Model(contentsOf: path)
                _ = try model.run([try BenchCommand.sampleInput(for: model)])
                if index < count { outcome.loadedAndRan += 1 } else { outcome.weightFlipsRan += 1 }
                print("\(path): loaded and ran (the damage did not reach the structure)")
                outcome.byDamage[damage, default: (0, 0)].ran += 1
            } catch {
                if index < count { outcome.thrown += 1 }
                outcome.byDamage[damage, default: (0, 0)].thrown += 1
                print("\(path): threw \(type(of: error)): \(String(describing: error).prefix(160))")
            }
            fflush(nil)
            try? FileManager.default.removeItem(atPath: path)
        }
        return outcome
    }

    static func damaged(_ original: [UInt8], _ damage: Damage, _ random: inout SplitMix) -> [UInt8] {
        var bytes = original
        let n = bytes.count
        switch damage {
        case .truncate:
            bytes = Array(bytes.prefix(Int(random.next() % UInt64(max(n - 1, 1)))))
        case .flipHeader:
            for _ in 0..<8 { bytes[Int(random.next() % UInt64(min(n, 512)))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
        case .zeroRange:
            let start = Int(random.next() % UInt64(n)), length = min(n - start, 64 + Int(random.next() % 4096))
            for i in start ..< start + length { bytes[i] = 0 }
            bytes = Array(bytes.prefix(start + length + Int(random.next() % UInt64(max(n - start - length, 1)))))
        case .garbageAfterMagic:
            for i in 8 ..< n { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
        }
        return bytes
    }

    /// A small deterministic random generator (SplitMix64).
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
