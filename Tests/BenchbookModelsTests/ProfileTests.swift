import BenchbookBenchmark
import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// Model.profile in each runtime, and libtorch models that keep their own thread count.
/// (tests/python/test_models.py checks every course file's profile against its graph.)
final class ProfileTests: XCTestCase {
    static let photoInput = { try! Tensor(shape: [1, 3, 224, 224], float32: (0..<(3 * 224 * 224)).map { Float($0 % 255) / 255 }) }()

    /// ATen runs EfficientNet-Lite0's 32 1×1 convolutions on its slow path (`thnn_conv2d`)
    /// at 1 thread and most of them on MKLDNN at 2: the profile shows which, and two models
    /// of the same file loaded with 1 and 2 threads each keep theirs, whichever ran last.
    func testLibtorchModelsKeepTheirOwnThreadsAndTheProfileShowsTheKernelEachConvolutionTook() throws {
        let path = TestSupport.generatedDirectory + "/efficientnet_lite0.pt"
        let one = try Model(contentsOf: path, options: ModelOptions(threads: 1))
        let two = try Model(contentsOf: path, options: ModelOptions(threads: 2))
        XCTAssertEqual(one.threads, 1)
        XCTAssertEqual(two.threads, 2)
        func slowPathCalls(_ profile: OperatorProfile) -> Int {
            profile.modelOperators.filter { $0.kind == "aten::_convolution" && ($0.implementation ?? "").contains("aten::thnn_conv2d") }
                .reduce(0) { $0 + $1.calls } / profile.runs
        }
        let twoFirst = try two.profile(Self.photoInput, runs: 2)
        let oneAfter = try one.profile(Self.photoInput, runs: 2)
        let twoAgain = try two.profile(Self.photoInput, runs: 2)
        XCTAssertEqual(oneAfter.threads, 1)
        XCTAssertEqual(slowPathCalls(oneAfter), 32, "\(oneAfter)")
        XCTAssertLessThanOrEqual(slowPathCalls(twoFirst), 8, "\(twoFirst)")
        XCTAssertEqual(slowPathCalls(twoAgain), slowPathCalls(twoFirst))
        let convolutions = twoAgain.modelOperators.filter { $0.kind == "aten::_convolution" }.reduce(0) { $0 + $1.calls } / twoAgain.runs
        XCTAssertEqual(convolutions, 49)
        // Every call site is one entry; the operators' total accounts for the runs.
        XCTAssertEqual(oneAfter.modelOperators.reduce(0) { $0 + $1.calls }, 2 * oneAfter.modelOperators.count)
        XCTAssertEqual(oneAfter.operatorSecondsPerRun.count, 2)
        XCTAssertGreaterThan(oneAfter.coverage, 0.85)
        XCTAssertLessThanOrEqual(oneAfter.coverage, 1.0001)
        let grouped = oneAfter.grouped(by: .kind)
        XCTAssertEqual(grouped.operators.first?.kind, "aten::_convolution")
        XCTAssertEqual(grouped.operators.first?.name, "49 operators")
        XCTAssertEqual(grouped.modelOperators.reduce(0) { $0 + $1.share }, 1, accuracy: 1e-9)
        try one.setThreads(1)
    }

    func testLiteRTProfileReportsXNNPACKOperatorsAndTheRuntimesSteps() throws {
        let model = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.tflite"))
        let input = try Tensor(shape: [1, 28, 28, 1], float32: [Float](repeating: 0.5, count: 784))
        let profile = try model.profile(input, runs: 5)
        XCTAssertEqual(profile.runs, 5)
        XCTAssertTrue(profile.runtime.hasPrefix("LiteRT profiler"))
        let kinds = Set(profile.modelOperators.map(\.kind))
        XCTAssertTrue(kinds.contains("Convolution (NHWC, F32) IGEMM"), "\(kinds)")
        XCTAssertTrue(kinds.contains("Fully Connected (NC, F32) GEMM"), "\(kinds)")
        // The Keras reshape's shape arithmetic runs on TFLite's own kernels, outside XNNPACK.
        XCTAssertTrue(profile.modelOperators.contains { $0.kind == "SHAPE" && $0.implementation == "TFLite kernel" })
        XCTAssertTrue(profile.operators.contains { $0.isRuntimeStep && $0.kind == "LiteRT::Run[buffer registration]" })
        XCTAssertEqual(profile.allCalls["Convolution (NHWC, F32) IGEMM"], 2 * 5)
        // Profiling leaves the model's own compilation alone: its outputs do not change.
        let before = try model.run(input).floats
        _ = try model.profile(input, runs: 1)
        XCTAssertEqual(try model.run(input).floats, before)
    }

    func testAProfileNeedsARun() {
        XCTAssertThrowsError(try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.ptl"))
            .profile(try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0, count: 784)), runs: 0))
    }
}
