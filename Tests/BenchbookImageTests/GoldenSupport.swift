import Foundation
import XCTest
@testable import BenchbookImage

/// Reads the reference outputs written by scripts/images/make_goldens.py.
struct Goldens {
    let directory: URL
    let cases: [[String: Any]]

    /// The golden directory: $BENCHBOOK_IMAGE_GOLDENS, else <repo>/.build/goldens/images.
    static func load() throws -> Goldens {
        let environment = ProcessInfo.processInfo.environment["BENCHBOOK_IMAGE_GOLDENS"]
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = environment.map { URL(fileURLWithPath: $0) }
            ?? repository.appendingPathComponent(".build/goldens/images")
        let manifest = directory.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: manifest) else {
            throw MissingGoldens("no goldens at \(manifest.path): run `make image-goldens` (scripts/images/make_goldens.py) first")
        }
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return Goldens(directory: directory, cases: root["cases"] as! [[String: Any]])
    }

    func cases(kind: String) -> [[String: Any]] { cases.filter { $0["kind"] as? String == kind } }

    func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
    }

    func floats(_ file: String) throws -> [Float] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        return data.withUnsafeBytes { raw in (0..<data.count / 4).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
    }

    func input(_ testCase: [String: Any], options: DecodingOptions = DecodingOptions()) throws -> Image {
        try Image(contentsOfFile: directory.appendingPathComponent(testCase["input"] as! String).path, options: options)
    }

    func expectedImage(_ testCase: [String: Any]) throws -> Image {
        let expected = testCase["expected"] as! [String: Any]
        return try Image(width: expected["width"] as! Int, height: expected["height"] as! Int,
                         format: PixelFormat(rawValue: expected["format"] as! String)!,
                         pixels: try bytes(expected["file"] as! String))
    }
}

/// A failure to find the goldens; reported as a test failure, never silently skipped.
struct MissingGoldens: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Largest absolute sample difference, or nil when size or format differ.
func maxDifference(_ a: Image, _ b: Image) -> Int? {
    guard a.width == b.width, a.height == b.height, a.format == b.format else { return nil }
    var worst = 0
    for i in a.pixels.indices { worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
    return worst
}

/// Runs `check` for every case, collecting mismatches into one failure message.
func checkAll(_ cases: [[String: Any]], tolerance defaultTolerance: Int, file: StaticString = #filePath, line: UInt = #line,
              _ produce: ([String: Any]) throws -> (Image, Image)) {
    XCTAssertFalse(cases.isEmpty, "no golden cases of this kind", file: file, line: line)
    var failures: [String] = []
    var exact = 0, worst = 0
    for testCase in cases {
        let name = testCase["name"] as! String
        let tolerance = testCase["tolerance"] as? Int ?? defaultTolerance
        do {
            let (actual, expected) = try produce(testCase)
            if let difference = maxDifference(actual, expected) {
                if difference == 0 { exact += 1 }
                worst = max(worst, difference)
                if difference > tolerance { failures.append("\(name): max difference \(difference) > \(tolerance)") }
            } else {
                failures.append("\(name): got \(actual), expected \(expected)")
            }
        } catch {
            failures.append("\(name): threw \(error)")
        }
    }
    let kind = cases.first?["kind"] as? String ?? "?"
    print("golden \(kind): \(cases.count) cases, \(exact) bit-exact, largest difference \(worst)")
    XCTAssert(failures.isEmpty, "\(failures.count) of \(cases.count) cases differ:\n" + failures.joined(separator: "\n"), file: file, line: line)
}
