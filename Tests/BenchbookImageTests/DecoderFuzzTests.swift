import Foundation
import XCTest
@testable import BenchbookImage
import BenchbookRuntime

/// Feeds thousands of damaged PNG and JPEG files to the decoders: the process must not
/// crash, and every failure must arrive as a thrown ``ImageError``.
final class DecoderFuzzTests: XCTestCase {
    static func mutate(_ seed: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:  // a few bit flips anywhere
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            }
        case 1:  // truncation
            bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
        case 2:  // bit flips in the header region, where sizes and tables live
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<min(bytes.count, 700), using: &rng)
                bytes[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            }
        case 3:  // a run of random bytes
            let start = Int.random(in: 0..<bytes.count, using: &rng)
            for i in start..<min(bytes.count, start + Int.random(in: 1...64, using: &rng)) {
                bytes[i] = UInt8.random(in: 0...255, using: &rng)
            }
        default:  // flips and a truncation together
            let i = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[i] ^= 0xFF
            bytes = Array(bytes.prefix(Int.random(in: bytes.count / 2..<bytes.count, using: &rng)))
        }
        return bytes
    }

    func fuzz(extension fileExtension: String, iterations: Int, seed: UInt64) throws -> (decoded: Int, thrown: Int) {
        let goldens = try Goldens.load()
        let files = try FileManager.default.contentsOfDirectory(atPath: goldens.directory.path)
            .filter { $0.hasSuffix(fileExtension) }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 3, "seed files")
        let seeds = try files.map { try goldens.bytes($0) }
        var rng = SplitMix64(seed: seed)
        var decoded = 0, thrown = 0
        let options = DecodingOptions(maxPixelCount: 1 << 22)
        for iteration in 0..<iterations {
            let bytes = Self.mutate(seeds[iteration % seeds.count], using: &rng)
            var draft = options
            if iteration % 3 == 0 { draft.draftSize = Size(width: 16, height: 16) }
            do {
                let image = try Image(data: bytes, options: draft)
                XCTAssertEqual(image.pixels.count, image.width * image.height * image.channelCount)
                decoded += 1
            } catch {
                XCTAssertFalse(error.description.isEmpty)
                thrown += 1
            }
        }
        print("\(fileExtension) fuzz: \(iterations) mutated files, \(decoded) decoded, \(thrown) threw ImageError")
        return (decoded, thrown)
    }

    func testTwoThousandMutatedPNGFilesNeverCrash() throws {
        let (decoded, thrown) = try fuzz(extension: ".png", iterations: 2000, seed: 1)
        XCTAssertEqual(decoded + thrown, 2000)
        XCTAssertGreaterThan(thrown, 1000, "most damaged PNGs must be rejected (CRC, zlib, truncation)")
    }

    func testTwoThousandMutatedJPEGFilesNeverCrash() throws {
        let (decoded, thrown) = try fuzz(extension: ".jpg", iterations: 2000, seed: 2)
        XCTAssertEqual(decoded + thrown, 2000)
        XCTAssertGreaterThan(thrown, 300, "truncated headers and broken markers must be rejected")
    }
}

/// Damaged gzip IDX files must fail as ``IDXError`` values, never crash.
final class IDXFuzzTests: XCTestCase {
    func testFiveHundredMutatedGzipLabelFilesNeverCrash() throws {
        let seed = try readFileBytes("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz")
        var rng = SplitMix64(seed: 3)
        var parsed = 0, thrown = 0
        for _ in 0..<500 {
            let bytes = DecoderFuzzTests.mutate(seed, using: &rng)
            do {
                let file = try IDXFile(data: bytes)
                XCTAssertEqual(file.bytes.count, file.dimensions.reduce(1, *))
                parsed += 1
            } catch {
                XCTAssertFalse("\(error)".isEmpty)
                thrown += 1
            }
        }
        print("gzip IDX fuzz: 500 mutated files, \(parsed) parsed, \(thrown) threw IDXError")
        XCTAssertGreaterThan(thrown, 400, "CRC and length checks must catch most damage")
    }
}
