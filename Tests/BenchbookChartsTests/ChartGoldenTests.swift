import BenchbookCharts
import Foundation
import Testing

/// Golden-image tests: each sample chart is rendered at scale 1, decoded, and compared with
/// the committed PNG in Tests/Fixtures/charts with a tolerance (font rasterisation and
/// cairo versions differ slightly between machines).
///
/// To regenerate after an intended change, look at the new images, then:
///   BENCHBOOK_UPDATE_GOLDENS=1 swift test --filter BenchbookChartsTests
/// Rendered images of every run are also written to $TMPDIR/benchbook-charts-actual/.
@Suite struct ChartGoldenTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/charts")
    static let actualDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-charts-actual")

    /// A pixel differs when a channel differs by more than this.
    static let channelTolerance = 48
    /// At most this share of pixels may differ.
    static let differingShare = 0.005

    @Test(arguments: try! ChartSamples.all().map(\.0))
    func matchesGolden(_ name: String) throws {
        let chart = try #require(try ChartSamples.all().first { $0.0 == name }?.1)
        let png = try chart.pngData(scale: 1)
        try FileManager.default.createDirectory(at: Self.actualDirectory, withIntermediateDirectories: true)
        try png.write(to: Self.actualDirectory.appendingPathComponent(name + ".png"))
        let goldenURL = Self.goldenDirectory.appendingPathComponent(name + ".png")
        if ProcessInfo.processInfo.environment["BENCHBOOK_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try png.write(to: goldenURL)
        }
        let golden = try ChartImage(pngData: Data(contentsOf: goldenURL))
        let actual = try ChartImage(pngData: png)
        #expect(actual.width == Int(chart.size.width.rounded()))
        #expect(actual.height == Int(chart.size.height.rounded()))
        #expect(actual.width == golden.width && actual.height == golden.height, "size changed for \(name)")
        guard actual.width == golden.width, actual.height == golden.height else { return }
        var differing = 0
        var totalDifference = 0
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual.rgba(x: x, y: y), g = golden.rgba(x: x, y: y)
                let d = max(abs(Int(a.red) - Int(g.red)), abs(Int(a.green) - Int(g.green)), abs(Int(a.blue) - Int(g.blue)))
                totalDifference += d
                if d > Self.channelTolerance { differing += 1 }
            }
        }
        let pixels = actual.width * actual.height
        let share = Double(differing) / Double(pixels)
        #expect(share <= Self.differingShare,
                "\(name): \(differing) of \(pixels) pixels differ; see \(Self.actualDirectory.path)/\(name).png")
        #expect(Double(totalDifference) / Double(pixels) < 2.0, "\(name): mean difference too large")
    }

    @Test func chartsAreNotBlank() throws {
        for (name, chart) in try ChartSamples.all() {
            let image = try chart.image()
            var nonWhite = 0
            var colours = Set<UInt32>()
            for y in stride(from: 0, to: image.height, by: 2) {
                for x in stride(from: 0, to: image.width, by: 2) {
                    let p = image.rgba(x: x, y: y)
                    if p.red < 240 || p.green < 240 || p.blue < 240 { nonWhite += 1 }
                    colours.insert(UInt32(p.red) << 16 | UInt32(p.green) << 8 | UInt32(p.blue))
                }
            }
            #expect(nonWhite > 500, "\(name) looks blank")
            #expect(colours.count > 20, "\(name) has too few colours for anti-aliased text")
        }
    }
}
