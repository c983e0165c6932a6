// benchbook-preprocess-bench: times Benchbook's preprocessing pipelines and prints one
// JSON object. scripts/images/bench_preprocessing.py runs it next to the same pipelines
// in Pillow + NumPy and writes the ratios to results/.
//
//   benchbook-preprocess-bench --jpeg photo.jpg [--runs 30] [--tensor-out t.f32]
//                              [--fashion-dir /usr/share/datasets/fashion-mnist]
import BenchbookImage
import BenchbookTensor
import Foundation
import JSONCore

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

/// CPU time of the calling thread in seconds (not counting time spent waiting for a core).
func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Wall-clock and thread CPU seconds of each timed run.
struct Timings {
    var wall: [Double] = []
    var cpu: [Double] = []

    /// Divides every time by `count` (for loops of repetitions).
    func perCall(_ count: Int) -> Timings {
        Timings(wall: wall.map { $0 / Double(count) }, cpu: cpu.map { $0 / Double(count) })
    }
}

/// Warm-up then `runs` timed repetitions.
func measure(runs: Int, warmUp: Int = 3, _ body: () throws -> Void) rethrows -> Timings {
    for _ in 0..<warmUp { try body() }
    var timings = Timings()
    for _ in 0..<runs {
        let wall = DispatchTime.now().uptimeNanoseconds, cpu = threadCPUTime()
        try body()
        timings.cpu.append(threadCPUTime() - cpu)
        timings.wall.append(Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9)
    }
    return timings
}

func summary(_ timings: Timings) -> JSONValue {
    let wall = timings.wall.sorted(), cpu = timings.cpu.sorted()
    return ["min_s": .number(wall.first!), "median_s": .number(wall[wall.count / 2]),
            "mean_s": .number(wall.reduce(0, +) / Double(wall.count)),
            "cpu_min_s": .number(cpu.first!), "cpu_median_s": .number(cpu[cpu.count / 2])]
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
var results: [String: JSONValue] = [:]
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
        results["jpeg_to_tensor_shape"] = .array(tensor.shape.map { .number(Double($0)) })
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
    results["fashion_count"] = .number(Double(test.count))
    results["fashion_checksum"] = .number(checksum)

    // Softmax + top-5 over 1000 classes.
    var generator = SystemRandomNumberGenerator()
    let logits = try Tensor(shape: [1, 1000], float32: (0..<1000).map { _ in Float.random(in: -8...8, using: &generator) })
    let repetitions = 2000
    let softmaxTimes = try measure(runs: max(5, options.runs / 3)) {
        for _ in 0..<repetitions { _ = try logits.softmax().topK(5) }
    }.perCall(repetitions)
    results["softmax_top5"] = summary(softmaxTimes)

    print(JSONValue.object(results).serializedText(sortingKeys: true, indented: true))
} catch {
    FileHandle.standardError.write(Data("benchbook-preprocess-bench: \(error)\n".utf8))
    exit(1)
}
