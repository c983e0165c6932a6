import BenchbookImage
import BenchbookTensor
import Foundation
import XCTest
@testable import BenchbookModels

/// ExecuTorch programs (`.pte`, notebooks/models/executorch/, made by
/// scripts/models/export_executorch.py): loading, running against the Python ExecuTorch runtime
/// and TorchScript on the same weights, threads, profiles, and each way a file can be wrong.
final class ExecuTorchTests: XCTestCase {
    static let directory = TestSupport.modelsDirectory + "/executorch"
    private var scratch: String!

    override func setUpWithError() throws {
        scratch = NSTemporaryDirectory() + "benchbook-executorch-\(getpid())"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: scratch) }

    static func path(_ name: String) throws -> String {
        let path = directory + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("\(path) is missing; it is committed (make executorch-models makes it again)")
            throw XCTSkip("missing program")
        }
        return path
    }

    static func model(_ name: String, threads: Int? = 1, checked: Bool = true) throws -> Model {
        try Model(contentsOf: try path(name), options: ModelOptions(threads: threads, checksInChildProcess: checked))
    }

    /// The record the export wrote: the Python ExecuTorch runtime's logits per photo.
    static func record() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: try path("EXECUTORCH.json")))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    private func loadError(_ path: String, checked: Bool = true) -> ModelError? {
        do {
            _ = try Model(contentsOf: path, options: ModelOptions(checksInChildProcess: checked))
            return nil
        } catch { return error }
    }

    /// A copy of a program with `find` replaced by `replacement` (same length) everywhere.
    private func patched(_ name: String, _ find: String, _ replacement: String, as copy: String) throws -> String {
        precondition(find.utf8.count == replacement.utf8.count)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.path(name))))
        let needle = Array(find.utf8)
        var found = 0
        var index = 0
        while index + needle.count <= bytes.count {
            if Array(bytes[index ..< index + needle.count]) == needle {
                bytes.replaceSubrange(index ..< index + needle.count, with: Array(replacement.utf8))
                found += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        XCTAssertGreaterThan(found, 0, "\(find) is not in \(name)")
        let path = scratch + "/" + copy
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: Loading and describing

    func testLoadsAndDescribesTheProgram() throws {
        let model = try Self.model("fashion_cnn.pte")
        XCTAssertEqual(model.format, .execuTorch)
        XCTAssertEqual(model.inputs, [TensorDescription(name: "image", shape: [1, 1, 28, 28], elementType: .float32, layout: .nchw)])
        XCTAssertEqual(model.outputs.first?.shape, [1, 10])
        XCTAssertEqual(model.labels?.count, 10)
        XCTAssertEqual(model.labels?.last, "Ankle boot")
        XCTAssertEqual(model.preprocessing?.grayscale, .bt601)
        XCTAssertNil(model.quantizedEngine)
        XCTAssertEqual(model.operators, ["delegate:XnnpackBackend"], "the float program runs wholly in XNNPACK")
        let program = try XCTUnwrap(model.runtime as? ExecuTorchProgram)
        XCTAssertEqual(program.methodNames, ["benchbook_json", "forward"])
        XCTAssertTrue(ExecuTorchProgram.registeredBackends.contains("XnnpackBackend"))
        XCTAssertTrue(model.summary.description.contains("ExecuTorch on ExecuTorch runtime 1.5.1 (XNNPACK), 1 thread(s)"),
                      model.summary.description)
        let portable = try Self.model("fashion_cnn_portable.pte")
        XCTAssertFalse(portable.operators!.contains("delegate:XnnpackBackend"))
        XCTAssertTrue(portable.operators!.contains("aten::convolution.out"), "\(portable.operators!)")
    }

    /// The XNNPACK-delegated, int8 and portable programs give the Python ExecuTorch runtime's
    /// outputs on the Fashion-MNIST reference inputs (ReferenceTests compares the same fixtures;
    /// here the delegated and portable programs are also compared with each other).
    func testFashionProgramsAgreeWithEachOther() throws {
        let (images, labels) = try TestSupport.fashionTest(count: 20)
        let delegated = try Self.model("fashion_cnn.pte"), portable = try Self.model("fashion_cnn_portable.pte")
        let torch = try Model(contentsOf: try TestSupport.courseModel("fashion_cnn.pt"), options: ModelOptions(threads: 1))
        var largest: Float = 0
        var correct = 0
        for index in 0..<20 {
            let image = try images.batch(index ..< index + 1)
            let a = try delegated.run(image).floats, b = try portable.run(image).floats, c = try torch.run(image).floats
            largest = max(largest, zip(a, b).map { abs($0 - $1) }.max()!, zip(a, c).map { abs($0 - $1) }.max()!)
            correct += a.indices.max { a[$0] < a[$1] } == labels[index] ? 1 : 0
        }
        print("executorch fashion: max |delegated - portable|, |delegated - TorchScript| over 20 images = \(largest)")
        XCTAssertLessThanOrEqual(largest, 1e-4)
        XCTAssertGreaterThanOrEqual(correct, 17)
    }

    // MARK: The course photos against Python and TorchScript

    /// Every course photo, from Swift (decode, the program's own preprocessing, ExecuTorch):
    /// the top 5 and logits of the Python ExecuTorch runtime (the export's record) and, for the
    /// float program, of TorchScript on the same weights (Debian's torch, the set-up reference).
    func testPhotosMatchPythonExecuTorchAndTorchScript() throws {
        let record = try Self.record()
        let photos = (record["photos"] as! [String: Any])["photos"] as! [[String: Any]]
        XCTAssertEqual(photos.count, 6)
        let torchPhotos = try ImageNetPhotoTests.photos()
        for file in ["efficientnet_lite0.pte", "efficientnet_lite0_int8.pte"] {
            let model = try Self.model(file)
            XCTAssertEqual(model.labels?.count, 1000)
            var largestPython: Float = 0, largestTorch: Float = 0
            var agreeing = 0, sameTop1 = 0, sameTop1AsFloat = 0
            for photo in photos {
                let name = photo["file"] as! String
                let python = ((photo["logits"] as! [String: [NSNumber]])[file]!).map(\.floatValue)
                let prediction = try model.classify(try ImageNetPhotoTests.image(name))
                XCTAssertEqual(prediction.top(5).map(\.index), ImageNetPhotoTests.top(5, python), "\(file), \(name)")
                largestPython = max(largestPython, zip(prediction.logits, python).map { abs($0 - $1) }.max()!)
                let torchFile = file.replacingOccurrences(of: ".pte", with: ".pt")
                let torch = try XCTUnwrap(torchPhotos.first { $0.file == name }?.logits[torchFile])
                largestTorch = max(largestTorch, zip(prediction.logits, torch).map { abs($0 - $1) }.max()!)
                let sameTop5 = prediction.top(5).map(\.index) == ImageNetPhotoTests.top(5, torch)
                agreeing += sameTop5 ? 1 : 0
                sameTop1 += prediction.top.index == ImageNetPhotoTests.top(1, torch).first ? 1 : 0
                let floatTorch = torchPhotos.first { $0.file == name }?.logits["efficientnet_lite0.pt"] ?? []
                sameTop1AsFloat += prediction.top.index == ImageNetPhotoTests.top(1, floatTorch).first ? 1 : 0
                if file == "efficientnet_lite0.pte" { XCTAssertTrue(sameTop5, "\(name): top 5 differs from \(torchFile)") }
            }
            XCTAssertLessThanOrEqual(largestPython, 1e-4, "\(file): Swift against the Python ExecuTorch runtime")
            if file == "efficientnet_lite0.pte" { XCTAssertLessThanOrEqual(largestTorch, 1e-3) }
            print("executorch \(file): max |Swift - Python ExecuTorch| logit \(largestPython); "
                  + "max |Swift - \(file.replacingOccurrences(of: ".pte", with: ".pt")) (TorchScript)| logit \(largestTorch); "
                  + "same top 5 as TorchScript on \(agreeing) of \(photos.count) photos, same top 1 on \(sameTop1), "
                  + "same top 1 as float TorchScript on \(sameTop1AsFloat)")
        }
    }

    func testPredictTop5FromAPhoto() throws {
        for file in ["efficientnet_lite0.pte", "efficientnet_lite0_int8.pte"] {
            let top5 = try Self.model(file).predictTop5(try ImageNetPhotoTests.image("coffee.png"))
            XCTAssertEqual(top5.count, 5, file)
            XCTAssertEqual(top5.first?.label, "espresso", file)
            XCTAssertTrue(zip(top5, top5.dropFirst()).allSatisfy { $0.probability >= $1.probability }, file)
        }
    }

    // MARK: Threads

    /// The count reaches the runtime: the process's thread pool is resized (a pool of N threads
    /// has N - 1 workers), its new worker does part of the work (its CPU time grows while the
    /// program runs), and the method is loaded again for the new pool.
    func testThreadCountTakesEffect() throws {
        let model = try Self.model("efficientnet_lite0.pte", threads: 1)
        let program = try XCTUnwrap(model.runtime as? ExecuTorchProgram)
        let input = try Tensor(shape: [1, 3, 224, 224], float32: [Float](repeating: 0.1, count: 3 * 224 * 224))
        let reference = try model.run(input)
        let oneThread = Set(Self.threads())
        XCTAssertEqual(program.methodLoads, 1)
        try model.setThreads(2)
        XCTAssertEqual(model.threads, 2)
        _ = try model.run(input)
        let workers = Set(Self.threads()).subtracting(oneThread)
        XCTAssertGreaterThanOrEqual(workers.count, 1, "a pool of 2 threads has a worker besides the caller")
        XCTAssertEqual(program.methodLoads, 2, "forward is loaded again for the new pool")
        let before = workers.map(Self.cpuTicks).reduce(0, +)
        var output = reference
        for _ in 0..<10 { output = try model.run(input) }
        let after = workers.map(Self.cpuTicks).reduce(0, +)
        XCTAssertGreaterThan(after, before, "the worker did none of the work of 10 runs")
        XCTAssertEqual(output.floats, reference.floats, "the thread count changes where the work runs, not the result")
        try model.setThreads(1)
        _ = try model.run(input)
        XCTAssertEqual(program.methodLoads, 3)
    }

    /// Two programs with their own counts take turns: each run gets its own count, and a program
    /// loaded on a pool that was replaced loads its method again instead of using the old pool.
    func testProgramsWithDifferentCountsTakeTurns() throws {
        let one = try Self.model("fashion_cnn.pte", threads: 1), two = try Self.model("fashion_cnn_int8.pte", threads: 2)
        let input = try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0.5, count: 784))
        let first = try one.run(input)
        for _ in 0..<3 {
            _ = try two.run(input)
            XCTAssertEqual(try one.run(input).floats, first.floats)
        }
        XCTAssertEqual(one.threads, 1)
        XCTAssertEqual(two.threads, 2)
    }

    /// Two programs with different counts run at once on two threads (each Model used by one):
    /// a run holds the pool, so neither resizes it under the other's run, and every output is right.
    func testProgramsWithDifferentCountsRunConcurrently() throws {
        let models = [try Self.model("fashion_cnn.pte", threads: 1), try Self.model("fashion_cnn_int8.pte", threads: 2)]
        let input = try Tensor(shape: [1, 1, 28, 28], float32: (0..<784).map { Float($0 % 13) / 13 })
        let shared = Shared(models: models, input: input, expected: try models.map { try $0.run(input).floats })
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for _ in 0..<30 {
                guard let output = try? shared.models[index].run(shared.input).floats, output == shared.expected[index] else {
                    return shared.fail()
                }
            }
        }
        XCTAssertEqual(shared.failures, 0)
    }

    /// What the two threads share; each uses its own Model.
    final class Shared: @unchecked Sendable {
        let models: [Model], input: Tensor, expected: [[Float]]
        private let lock = NSLock()
        private var failed = 0
        init(models: [Model], input: Tensor, expected: [[Float]]) {
            self.models = models
            self.input = input
            self.expected = expected
        }
        func fail() { lock.withLock { failed += 1 } }
        var failures: Int { lock.withLock { failed } }
    }

    /// The file check forks this process after the pool's workers ran: the child must not wait
    /// for workers it does not have (the runtime's pool starts anew after a fork). A hang would
    /// be refused after ModelFileCheck's 60 s as "did not finish", failing the load.
    func testCheckedLoadAfterThePoolRan() throws {
        let first = try Self.model("fashion_cnn.pte", threads: 2)
        _ = try first.run(try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0.5, count: 784)))
        let second = try Self.model("efficientnet_lite0_int8.pte", threads: 2, checked: true)
        let input = try Tensor(shape: [1, 3, 224, 224], float32: [Float](repeating: 0.1, count: 3 * 224 * 224))
        XCTAssertEqual(try second.run(input).shape, [1, 1000])
    }

    static func threads() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] }

    /// utime + stime of one thread of this process, in clock ticks.
    static func cpuTicks(_ thread: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(thread)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)  // fields 14 and 15 of stat
    }

    // MARK: Profiles

    func testProfileNamesDelegatedAndKernelOperators() throws {
        let input = try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0.5, count: 784))
        let model = try Self.model("fashion_cnn.pte")
        XCTAssertNil(model.lastETDump)
        let delegated = try model.profile(input, runs: 5)
        // ExecuTorch's own file (its Inspector reads it: make test-executorch-export compares the two).
        XCTAssertGreaterThan(model.lastETDump?.count ?? 0, 1000)
        XCTAssertEqual(delegated.runs, 5)
        XCTAssertEqual(delegated.runtime, ExecuTorchProgram.profilerName)
        let kinds = Set(delegated.modelOperators.map(\.kind))
        XCTAssertTrue(kinds.contains { $0.hasPrefix("Convolution") }, "\(kinds)")
        XCTAssertTrue(kinds.contains { $0.hasPrefix("Fully Connected") }, "\(kinds)")
        XCTAssertTrue(delegated.modelOperators.allSatisfy { $0.implementation == "XNNPACK, delegated block 1" },
                      "\(delegated.modelOperators.map(\.label))")
        XCTAssertTrue(delegated.operators.contains { $0.isRuntimeStep && $0.kind == "XNNPACK block 1 outside its operators" })
        XCTAssertTrue(delegated.modelOperators.allSatisfy { $0.calls == 5 })
        let portable = try Self.model("fashion_cnn_portable.pte").profile(input, runs: 5)
        let convolutions = portable.modelOperators.filter { $0.kind == "aten::convolution.out" }
        XCTAssertEqual(convolutions.count, 2, "\(portable.modelOperators.map(\.label))")
        XCTAssertTrue(portable.modelOperators.allSatisfy { $0.implementation == ExecuTorchProgram.kernelImplementation })
        for profile in [delegated, portable] {
            XCTAssertLessThanOrEqual(profile.coverage, 1.05, "operators cannot take longer than the run")
            XCTAssertGreaterThan(profile.coverage, 0.3)
        }
    }

    func testEfficientNetProfileCoversTheRun() throws {
        let input = try Tensor(shape: [1, 3, 224, 224], float32: [Float](repeating: 0.1, count: 3 * 224 * 224))
        let profile = try Self.model("efficientnet_lite0.pte").profile(input, runs: 10)
        let convolutions = profile.modelOperators.filter { $0.kind.hasPrefix("Convolution") || $0.kind.hasPrefix("Fully Connected") }
        // 49 convolutions and the classifier; XNNPACK runs 1x1 convolutions as Fully Connected GEMMs.
        XCTAssertEqual(convolutions.count, 50, "\(Set(profile.modelOperators.map(\.kind)))")
        print("executorch efficientnet_lite0.pte profile: coverage \(profile.coverage), "
              + "\(profile.modelOperators.count) operators")
        XCTAssertGreaterThan(profile.coverage, 0.5)
        XCTAssertLessThanOrEqual(profile.coverage, 1.05)
    }

    // MARK: Bad files and inputs

    func testTruncatedProgramNamesTheFileAndTheShortfall() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: try Self.path("fashion_cnn.pte")))
        let path = scratch + "/truncated.pte"
        try original.prefix(original.count / 2).write(to: URL(fileURLWithPath: path))
        for checked in [true, false] {
            guard case .corruptModel(let reported, .execuTorch?, let reason)? = loadError(path, checked: checked) else {
                return XCTFail("\(String(describing: loadError(path, checked: checked)))")
            }
            XCTAssertEqual(reported, path)
            XCTAssertTrue(reason.contains("the file is truncated"), reason)
            XCTAssertTrue(reason.contains("but the file has \(original.count / 2) bytes"), reason)
        }
    }

    func testWrongIdentifierIsNotAnExecuTorchProgram() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.path("fashion_cnn.pte"))))
        bytes.replaceSubrange(4..<8, with: Array("XYZW".utf8))
        let path = scratch + "/magic.pte"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard case .corruptModel(path, .execuTorch?, let reason)? = loadError(path) else {
            return XCTFail("\(String(describing: loadError(path)))")
        }
        XCTAssertTrue(reason.contains("no ExecuTorch identifier") && reason.contains("XYZW"), reason)
        bytes.replaceSubrange(4..<8, with: Array("ET99".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = loadError(path)
        XCTAssertTrue(error?.description.contains("schema 'ET99'") == true, "\(String(describing: error))")
        let renamed = scratch + "/program.tflite"
        try FileManager.default.copyItem(atPath: try Self.path("fashion_cnn.pte"), toPath: renamed)
        XCTAssertEqual(loadError(renamed), .wrongFormat(path: renamed, expected: .tensorFlowLite, found: "ExecuTorch"))
    }

    func testMissingBackendIsNamed() throws {
        let path = try patched("fashion_cnn.pte", "XnnpackBackend", "VulkanBackend!", as: "vulkan.pte")
        for checked in [true, false] {
            guard case .runtimeLacks(path, .execuTorch, let missing)? = loadError(path, checked: checked) else {
                return XCTFail("\(String(describing: loadError(path, checked: checked)))")
            }
            XCTAssertTrue(missing.contains("backend VulkanBackend!") && missing.contains("its backends: XnnpackBackend"),
                          missing)
        }
    }

    func testMissingKernelIsNamed() throws {
        let path = try patched("fashion_cnn_portable.pte", "aten::max_pool2d_with_indices", "bbxx::max_pool2d_with_indices",
                               as: "unknown-op.pte")
        for checked in [true, false] {
            guard case .runtimeLacks(path, .execuTorch, let missing)? = loadError(path, checked: checked) else {
                return XCTFail("\(String(describing: loadError(path, checked: checked)))")
            }
            XCTAssertTrue(missing.contains("bbxx::max_pool2d_with_indices.out") && missing.contains("no kernel"), missing)
        }
    }

    func testWrongInputShapeNamesTheFileAndShapes() throws {
        let path = try Self.path("fashion_cnn.pte")
        let model = try Self.model("fashion_cnn.pte")
        let batch = try Tensor(shape: [3, 1, 28, 28], float32: [Float](repeating: 0, count: 3 * 784))
        XCTAssertThrowsError(try model.run(batch)) { error in
            XCTAssertEqual(error as? ModelError, .inputShape(path: path, input: "image", expected: [1, 1, 28, 28], given: [3, 1, 28, 28]))
        }
        XCTAssertThrowsError(try model.run(try Tensor(shape: [1, 1, 28, 28], storage: .uint8([UInt8](repeating: 0, count: 784))))) {
            XCTAssertEqual($0 as? ModelError, .inputType(path: path, input: "image", expected: .float32, given: .uint8))
        }
        XCTAssertEqual(try model.run(try Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0, count: 784))).shape, [1, 10])
    }
}
