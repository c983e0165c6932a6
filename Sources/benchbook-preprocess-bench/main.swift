// benchbook-preprocess-bench: times Benchbook's preprocessing pipelines and prints one
// JSON object. scripts/images/bench_preprocessing.py runs it next to the same pipelines
// in Pillow + NumPy and writes the ratios to results/.
//
//   benchbook-preprocess-bench --jpeg photo.jpg [--runs 30] [--tensor-out t.f32]
//                              [--fashion-dir /usr/share/datasets/fashion-mnist]
import BenchbookImage
import BenchbookTensor
import Foundation

/// Command-line options.
struct Options {
    var jpeg = ""
    var runs = 30
    var tensorOut: String?
    var fashionDirectory = FashionMNIST.defaultDirectory

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--jpeg": jpeg = iterator.next() ?? ""
            case "--runs": runs = Int(iterator.next() ?? "") ?? runs
            case "--tensor-out": tensorOut = iterator.next()
            case "--fashion-dir": fashionDirectory = iterator.next() ?? fashionDirectory
            default:
                FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

/// Seconds taken by `body`, measured with the monotonic clock.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Warm-up then `runs` timed repetitions; returns the sorted times.
func measure(runs: Int, warmUp: Int = 3, _ body: () throws -> Void) rethrows -> [Double] {
    for _ in 0..<warmUp { try body() }
    return try (0..<runs).map { _ in try seconds(body) }.sorted()
}

func summary(_ times: [Double]) -> [String: Double] {
    ["min_s": times.first!, "median_s": times[times.count / 2], "mean_s": times.reduce(0, +) / Double(times.count)]
}

/// The course's MobileNetV2 input: draft-decode, shorter side to 224 (bilinear), centre
/// crop 224, ImageNet mean/std, NCHW with a batch axis.
func photoToTensor(_ path: String) throws -> Tensor {
    try Image(contentsOfFile: path, options: DecodingOptions(draftSize: Size(square: 224)))
        .resized(shorterSide: 224, filter: .bilinear)
        .centerCropped(to: Size(square: 224))
        .tensor(normalization: .imageNet, layout: .nchw)
}

let options = Options(arguments: CommandLine.arguments)
var results: [String: Any] = [:]
do {
    if !options.jpeg.isEmpty {
        let times = try measure(runs: options.runs) { _ = try photoToTensor(options.jpeg) }
        let decodeTimes = try measure(runs: options.runs) {
            _ = try Image(contentsOfFile: options.jpeg, options: DecodingOptions(draftSize: Size(square: 224)))
        }
        results["jpeg_decode"] = summary(decodeTimes)
        let decoded = try Image(contentsOfFile: options.jpeg, options: DecodingOptions(draftSize: Size(square: 224)))
        let postTimes = try measure(runs: options.runs) {
            _ = try decoded.resized(shorterSide: 224, filter: .bilinear).centerCropped(to: Size(square: 224))
                .tensor(normalization: .imageNet, layout: .nchw)
        }
        results["jpeg_postprocess"] = summary(postTimes)
        let tensor = try photoToTensor(options.jpeg)
        if let path = options.tensorOut {
            try tensor.floats.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path))
        }
        results["jpeg_to_tensor"] = summary(times)
        results["jpeg_to_tensor_shape"] = tensor.shape
    }

    // Fashion-MNIST: read the 10k test set (gzip + IDX), then every image to [1, 1, 28, 28] in [0, 1].
    var dataset: FashionMNIST?
    let loadTimes = try measure(runs: max(3, options.runs / 6), warmUp: 1) {
        dataset = try FashionMNIST(split: .test, directory: options.fashionDirectory)
    }
    let test = dataset!
    var checksum = 0.0
    let pipelineTimes = try measure(runs: max(3, options.runs / 6), warmUp: 1) {
        checksum = 0
        for index in 0..<test.count {
            let input = try test.image(at: index).tensor(normalization: .unit, layout: .nchw)
            checksum += Double(input.floats[400])
        }
    }
    results["fashion_load"] = summary(loadTimes)
    results["fashion_pipeline"] = summary(pipelineTimes)
    results["fashion_count"] = test.count
    results["fashion_checksum"] = checksum

    // Softmax + top-5 over 1000 classes.
    var generator = SystemRandomNumberGenerator()
    let logits = try Tensor(shape: [1, 1000], float32: (0..<1000).map { _ in Float.random(in: -8...8, using: &generator) })
    let repetitions = 2000
    let softmaxTimes = try measure(runs: max(5, options.runs / 3)) {
        for _ in 0..<repetitions { _ = try logits.softmax().topK(5) }
    }.map { $0 / Double(repetitions) }
    results["softmax_top5"] = summary(softmaxTimes)

    let json = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: json, as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("benchbook-preprocess-bench: \(error)\n".utf8))
    exit(1)
}
