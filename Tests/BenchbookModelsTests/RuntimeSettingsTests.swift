import BenchbookImage
import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// Quiet runtimes, the thread-pool rule, and what files record about themselves.
final class RuntimeSettingsTests: XCTestCase {
    /// Runs `body` with file descriptor 2 sent to a file and returns what was written there.
    private func standardError(_ body: () throws -> Void) throws -> String {
        let path = NSTemporaryDirectory() + "benchbook-stderr-\(getpid())-\(UUID().uuidString)"
        let file = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        fflush(nil)
        let saved = dup(2)
        dup2(file, 2)
        close(file)
        defer {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
            unlink(path)
        }
        try body()
        fflush(nil)
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    func testRuntimesAreQuietByDefaultAndTheSwitchLetsThemThrough() throws {
        let tflite = TestSupport.generatedDirectory + "/efficientnet_lite0.tflite"
        let torch = TestSupport.generatedDirectory + "/efficientnet_lite0.ptl"
        XCTAssertFalse(RuntimeLogs.isEnabled, "the default is quiet (BENCHBOOK_RUNTIME_LOGS is not set in tests)")
        RuntimeLogs.clear()
        let quiet = try standardError {
            for path in [tflite, torch] {
                let model = try Model(contentsOf: path)
                _ = try model.predictTop5(try Image(width: 300, height: 200, format: .rgb, filledWith: [90, 120, 200]))
                try model.setThreads(2)
            }
        }
        XCTAssertEqual(quiet, "", "nothing may reach standard error while quiet")
        let kept = RuntimeLogs.captured
        XCTAssertTrue(kept.contains { $0.hasPrefix("LiteRT: INFO") }, "LiteRT's lines are kept: \(kept.prefix(3))")

        RuntimeLogs.isEnabled = true
        defer { RuntimeLogs.isEnabled = false }
        let loud = try standardError { _ = try Model(contentsOf: tflite) }
        XCTAssertTrue(loud.contains("INFO"), "with the switch on LiteRT prints again: \(loud.prefix(200))")
    }

    func testLibtorchWarningsAreKeptWhileQuiet() throws {
        // A TorchScript module whose forward calls warnings.warn (libtorch's TORCH_WARN);
        // made by scripts/models/make_test_fixtures.py.
        let path = TestSupport.root + "/Tests/Fixtures/models/warns.pt"
        RuntimeLogs.clear()
        let model = try Model(contentsOf: path)
        let printed = try standardError { _ = try model.run(try Tensor(shape: [2], float32: [1, 2])) }
        XCTAssertEqual(printed, "")
        XCTAssertTrue(RuntimeLogs.captured.contains { $0.contains("this model always warns") }, "\(RuntimeLogs.captured)")
        RuntimeLogs.isEnabled = true
        defer { RuntimeLogs.isEnabled = false }
        let loud = try standardError { _ = try model.run(try Tensor(shape: [2], float32: [1, 2])) }
        XCTAssertTrue(loud.contains("this model always warns"), loud)
    }

    func testThreadPoolRuleFollowsTheOperators() throws {
        func note(_ name: String, engine: String = "qnnpack") throws -> String? {
            try Model(contentsOf: TestSupport.generatedDirectory + "/" + name,
                      options: ModelOptions(quantizedEngine: engine)).runtime.threadingNote
        }
        let pool = "XNNPACK/QNNPACK thread pool; ATen operators on 1 OpenMP thread"
        XCTAssertEqual(try note("efficientnet_lite0.ptl"), pool, "optimize_for_mobile inserts XNNPACK operators")
        XCTAssertEqual(try note("efficientnet_lite0.pt"), "OpenMP (ATen operators)")
        XCTAssertEqual(try note("efficientnet_lite0_noprepack.ptl"), "OpenMP (ATen operators)",
                       "a Lite file without prepacking runs ATen convolutions")
        XCTAssertEqual(try note("efficientnet_lite0_int8.pt"), pool, "QNNPACK runs on the pool")
        XCTAssertEqual(try note("efficientnet_lite0_int8.pt", engine: "onednn"), "OpenMP (ATen operators)",
                       "oneDNN runs quantised operators on OpenMP")
        _ = try Model(contentsOf: TestSupport.generatedDirectory + "/efficientnet_lite0.pt",
                      options: ModelOptions(quantizedEngine: "qnnpack"))
    }

    /// `Model.operators` shows what optimize_for_mobile changed: XNNPACK's prepacked
    /// convolutions in the Lite file, ATen's general convolution in the others.
    func testOperatorsShowThePrepackedConvolutions() throws {
        func operators(_ name: String) throws -> [String] {
            try XCTUnwrap(try Model(contentsOf: TestSupport.generatedDirectory + "/" + name).operators, name)
        }
        let lite = try operators("efficientnet_lite0.ptl")
        XCTAssertTrue(lite.contains("prepacked::conv2d_clamp_run"), lite.joined(separator: ", "))
        XCTAssertFalse(lite.contains("aten::_convolution"), lite.joined(separator: ", "))
        for name in ["efficientnet_lite0.pt", "efficientnet_lite0_noprepack.ptl"] {
            let plain = try operators(name)
            XCTAssertFalse(plain.contains { $0.hasPrefix("prepacked::") }, name)
            XCTAssertTrue(plain.contains { $0.hasPrefix("aten::") && $0.contains("conv") }, "\(name): \(plain)")
            XCTAssertFalse(plain.contains { $0.hasPrefix("prim::") }, "the interpreter's own instructions are left out")
            XCTAssertEqual(plain, plain.sorted(), name)
        }
        XCTAssertNil(try Model(contentsOf: TestSupport.generatedDirectory + "/efficientnet_lite0.tflite").operators)
    }

    /// `Prediction.probabilities` and `labels` are in class order, as the charts take them.
    func testPredictionListsClassesInLabelOrder() throws {
        let prediction = Prediction(logits: [0.5, 3, -1, 2], labels: ["a", "b", "c", "d"])
        XCTAssertEqual(prediction.labels, ["a", "b", "c", "d"])
        XCTAssertEqual(prediction.top.label, "b")
        XCTAssertEqual(prediction.probabilities.count, 4)
        XCTAssertEqual(prediction.probabilities.reduce(0, +), 1, accuracy: 1e-9)
        XCTAssertGreaterThan(prediction.probabilities[3], prediction.probabilities[0])
        XCTAssertGreaterThan(prediction.probabilities[0], prediction.probabilities[2])
    }

    func testTwoThreadsGiveTheSameAnswers() throws {
        let photo = try Image(contentsOfFile: TestSupport.generatedDirectory + "/sources/images/chelsea.png")
        for name in ["efficientnet_lite0.ptl", "efficientnet_lite0.pt", "efficientnet_lite0_int8.ptl"] {
            let model = try Model(contentsOf: TestSupport.generatedDirectory + "/" + name)
            try model.setThreads(1)
            let one = try model.classify(photo).logits
            try model.setThreads(2)
            XCTAssertEqual(model.threads, 2)
            let two = try model.classify(photo).logits
            let difference = zip(one, two).map { abs($0 - $1) }.max() ?? .infinity
            XCTAssertLessThanOrEqual(difference, 1e-3, name)
            // A call from another thread gets the same settings (OpenMP counts are per thread).
            nonisolated(unsafe) var other: [Float] = []
            nonisolated(unsafe) let shared = model
            let done = DispatchSemaphore(value: 0)
            Thread {
                other = (try? shared.classify(photo).logits) ?? []
                done.signal()
            }.start()
            done.wait()
            XCTAssertLessThanOrEqual(zip(other, two).map { abs($0 - $1) }.max() ?? .infinity, 1e-3, name)
            try model.setThreads(1)
        }
    }

    /// The load check forks; libgomp's workers from a 2-thread run do not exist in the child,
    /// which must still load a model (it used to wait for them for a minute, then report
    /// the file as damaged).
    func testLoadingAfterATwoThreadRunStillChecksInAChild() throws {
        let first = try Model(contentsOf: TestSupport.generatedDirectory + "/efficientnet_lite0.pt")
        try first.setThreads(2)
        _ = try first.run(try Tensor(shape: [1, 3, 224, 224], float32: [Float](repeating: 0.2, count: 3 * 224 * 224)))
        let started = Date()
        let second = try Model(contentsOf: TestSupport.generatedDirectory + "/efficientnet_lite0_int8.pt",
                               options: ModelOptions(checksInChildProcess: true))
        XCTAssertEqual(second.labels?.count, 1000)
        XCTAssertLessThan(Date().timeIntervalSince(started), 50, "the check process waited for OpenMP workers")
        try first.setThreads(1)
    }

    func testEveryCourseFileRecordsItsLabels() throws {
        for name in ["fashion_cnn.tflite", "fashion_cnn_int8.tflite", "fashion_cnn.ptl"] {
            XCTAssertEqual(try Model(contentsOf: try TestSupport.courseModel(name)).labels, FashionMNIST.classNames, name)
        }
        for name in ["efficientnet_lite0.tflite", "efficientnet_lite0_int8.tflite", "efficientnet_lite0_int8.pt"] {
            let model = try Model(contentsOf: TestSupport.generatedDirectory + "/" + name)
            XCTAssertEqual(model.labels?.count, 1000, name)
            XCTAssertEqual(model.labels?[281], "tabby", name)
        }
        let untrained = try Model(contentsOf: TestSupport.generatedDirectory + "/mobilenet_v2.tflite")
        XCTAssertTrue(untrained.note?.contains("UNTRAINED") == true)
        XCTAssertTrue(untrained.description.contains("UNTRAINED"))
    }
}
