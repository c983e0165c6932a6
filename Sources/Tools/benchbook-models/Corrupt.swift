import BenchbookModels
import BenchbookRuntime
import BenchbookTensor
import Foundation

/// `corrupt`: damages model files in many ways, loads each damaged copy in this process and
/// reports whether it threw, or loaded and ran. A crash ends the process (the test fails).
enum CorruptCommand {
    /// How one copy was damaged. All of these break the file's structure (lost zip central
    /// directory or FlatBuffer tables, shifted offsets, random contents). Subtler damage is
    /// reported separately (`--subtle N`): flipped bytes in the first 512 bytes or anywhere.
    /// Neither format checksums everything (libtorch does not check the zip CRCs or local
    /// headers, FlatBuffers have no checksum), so such a file may load and run.
    enum Damage: CaseIterable {
        case truncate, zeroTail, garbageAfterMagic, cutMiddle
    }

    struct Outcome {
        var thrown = 0
        var loadedAndRan = 0
        var subtleRan = 0
        var byDamage: [String: (thrown: Int, ran: Int)] = [:]
    }

    /// Flips 8 bytes in the first 512 (even index) or 32 bytes anywhere (odd index).
    static func subtlyDamaged(_ original: [UInt8], _ index: Int, _ random: inout SplitMix64) -> [UInt8] {
        var bytes = original
        let (flips, range) = index % 2 == 0 ? (8, min(bytes.count, 512)) : (32, bytes.count)
        for _ in 0..<flips { bytes[Int(random.next() % UInt64(range))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
        return bytes
    }

    static func run(models: [String], count: Int, subtle: Int = 0, seed: UInt64, directory: String) throws -> Outcome {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var generator = SplitMix64(seed: seed)
        var outcome = Outcome()
        var samples: [String: Tensor] = [:]
        for index in 0 ..< count + subtle {
            let source = models[index % models.count]
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
            let damage = index < count ? "\(Damage.allCases[(index / models.count) % Damage.allCases.count])"
                : (index % 2 == 0 ? "subtle-header-flips" : "subtle-flips-anywhere")
            let bytes = index < count
                ? damaged(original, Damage.allCases[(index / models.count) % Damage.allCases.count], &generator)
                : subtlyDamaged(original, index, &generator)
            // The undamaged model's input, in case the damage only lost the recorded shapes.
            if samples[source] == nil { samples[source] = try BenchCommand.sampleInput(for: try Model(contentsOf: source)) }
            let path = "\(directory)/\(index)-\(damage)-\((source as NSString).lastPathComponent)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let model = try Model(contentsOf: path)
                _ = try model.run([(try? BenchCommand.sampleInput(for: model)) ?? samples[source]!])
                if index < count { outcome.loadedAndRan += 1 } else { outcome.subtleRan += 1 }
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

    static func damaged(_ original: [UInt8], _ damage: Damage, _ random: inout SplitMix64) -> [UInt8] {
        var bytes = original
        let n = bytes.count
        switch damage {
        case .truncate:
            bytes = Array(bytes.prefix(Int(random.next() % UInt64(max(n - 1, 1)))))
        case .cutMiddle:
            let start = 8 + Int(random.next() % UInt64(max(n / 2, 1)))
            let length = 1 + Int(random.next() % UInt64(max(n - start - 1, 1)))
            bytes.removeSubrange(start ..< min(n, start + length))
        case .zeroTail:
            let start = Int(random.next() % UInt64(n)), length = min(n - start, 64 + Int(random.next() % 4096))
            for i in start ..< start + length { bytes[i] = 0 }
            bytes = Array(bytes.prefix(start + length + Int(random.next() % UInt64(max(n - start - length, 1)))))
        case .garbageAfterMagic:
            for i in 8 ..< n { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
        }
        return bytes
    }
}
