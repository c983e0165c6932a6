import XCTest
@testable import BenchbookImage

/// Swift output against Pillow and NumPy references (scripts/images/make_goldens.py).
final class PillowGoldenTests: XCTestCase {
    var goldens: Goldens!

    override func setUpWithError() throws {
        goldens = try Goldens.load()
    }

    func testDecodingMatchesPillowExactly() {
        checkAll(goldens.cases(kind: "decode"), tolerance: 0) { testCase in
            var options = DecodingOptions()
            if let draft = testCase["draft"] as? [Int] {
                options.draftSize = Size(width: draft[0], height: draft[1])
                options.pillowCompatibleDraft = true
            }
            return (try goldens.input(testCase, options: options), try goldens.expectedImage(testCase))
        }
    }

    func testResizeMatchesPillowWithinOneForEveryFilterAndSize() {
        let cases = goldens.cases(kind: "resize")
        XCTAssertGreaterThanOrEqual(cases.count, 6 * 6 * 6)
        checkAll(cases, tolerance: 1) { testCase in
            let filter = ResizeFilter(rawValue: testCase["filter"] as! String)!
            let image = try goldens.input(testCase)
            let gap = (testCase["reducingGap"] as? NSNumber)?.doubleValue
            let resized = try image.resized(width: testCase["width"] as! Int, height: testCase["height"] as! Int,
                                            filter: filter, reducingGap: gap)
            return (resized, try goldens.expectedImage(testCase))
        }
    }

    func testThumbnailMatchesPillowSizeAndPixels() {
        checkAll(goldens.cases(kind: "thumbnail"), tolerance: 1) { testCase in
            let bounds = testCase["bounds"] as! [Int]
            let thumbnail = try goldens.input(testCase).thumbnail(fitting: Size(width: bounds[0], height: bounds[1]))
            return (thumbnail, try goldens.expectedImage(testCase))
        }
    }

    func testReduceMatchesPillowWithinOne() {
        checkAll(goldens.cases(kind: "reduce"), tolerance: 1) { testCase in
            let image = try goldens.input(testCase)
            let reduced = try image.reduced(factorX: testCase["factorX"] as! Int, factorY: testCase["factorY"] as! Int)
            return (reduced, try goldens.expectedImage(testCase))
        }
    }

    func testGrayscaleIsBitExactWithPillow() {
        checkAll(goldens.cases(kind: "grayscale"), tolerance: 0) { testCase in
            let weights = GrayscaleWeights(rawValue: testCase["weights"] as! String)!
            var gray = try goldens.input(testCase).grayscale(weights: weights)
            if testCase["alpha"] as? Bool == true { gray = gray.converted(to: .gray) }
            return (gray, try goldens.expectedImage(testCase))
        }
    }

    func testInvertEqualizeAutocontrastMatchPillow() {
        checkAll(goldens.cases(kind: "invert"), tolerance: 0) { (try $0.inputImage(goldens).inverted(), try goldens.expectedImage($0)) }
        checkAll(goldens.cases(kind: "equalize"), tolerance: 0) { (try $0.inputImage(goldens).equalized(), try goldens.expectedImage($0)) }
        checkAll(goldens.cases(kind: "autocontrast"), tolerance: 0) { testCase in
            let cutoff = (testCase["cutoff"] as! NSNumber).doubleValue
            return (try testCase.inputImage(goldens).autocontrasted(cutoff: cutoff), try goldens.expectedImage(testCase))
        }
    }

    func testFlattenCropAndAutoCropMatchPillow() {
        checkAll(goldens.cases(kind: "flatten"), tolerance: 0) { testCase in
            let rgb = (testCase["background"] as! [Int]).map(UInt8.init)
            let flat = try testCase.inputImage(goldens).flattened(onto: RGBColor(red: rgb[0], green: rgb[1], blue: rgb[2]))
            return (flat, try goldens.expectedImage(testCase))
        }
        checkAll(goldens.cases(kind: "centercrop"), tolerance: 0) { testCase in
            let size = Size(width: testCase["width"] as! Int, height: testCase["height"] as! Int)
            return (try testCase.inputImage(goldens).centerCropped(to: size), try goldens.expectedImage(testCase))
        }
        checkAll(goldens.cases(kind: "autocrop"), tolerance: 0) { testCase in
            let image = try testCase.inputImage(goldens)
            let cropped = try image.autoCropped(threshold: testCase["threshold"] as! Int, margin: testCase["margin"] as! Int)
            return (cropped, try goldens.expectedImage(testCase))
        }
    }

    func testNormalisedTensorsMatchNumPyWithinOneMillionth() throws {
        let cases = goldens.cases(kind: "tensor")
        XCTAssertGreaterThan(cases.count, 10)
        let presets: [String: Normalization] = ["imageNet": .imageNet, "unit": .unit, "symmetric": .symmetric]
        for testCase in cases {
            let name = testCase["name"] as! String
            let tensor = try testCase.inputImage(goldens).tensor(
                normalization: presets[testCase["preset"] as! String]!,
                layout: testCase["layout"] as! String == "nchw" ? .nchw : .nhwc,
                channelOrder: ChannelOrder(rawValue: testCase["order"] as! String)!)
            XCTAssertEqual(tensor.shape, testCase["shape"] as! [Int], name)
            let expected = try goldens.floats((testCase["expected"] as! [String: Any])["file"] as! String)
            let actual = tensor.floats
            XCTAssertEqual(actual.count, expected.count, name)
            let worst = zip(actual, expected).map { abs($0 - $1) }.max() ?? .infinity
            XCTAssertLessThanOrEqual(worst, 1e-6, name)
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    func inputImage(_ goldens: Goldens) throws -> Image { try goldens.input(self) }
}

/// The golden comparison itself must be able to fail.
final class GoldenComparisonTests: XCTestCase {
    func testComparisonDetectsAWrongFilter() throws {
        let goldens = try Goldens.load()
        let bicubic = goldens.cases(kind: "resize").first { ($0["name"] as! String) == "resize-gradient-bicubic-129x55" }!
        let image = try goldens.input(bicubic)
        let nearest = try image.resized(width: 129, height: 55, filter: .nearest)
        let difference = try XCTUnwrap(maxDifference(nearest, try goldens.expectedImage(bicubic)))
        XCTAssertGreaterThan(difference, 1)
    }
}
