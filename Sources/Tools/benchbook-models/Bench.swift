import BenchbookModels
import BenchbookTensor
import Foundation
import JSONCore

/// `bench`: median latency of `Model.run` from Swift, and of libtorch's own C++ loop, per
/// model and thread count, as JSON lines (read by scripts/models/benchmark_models.py).
enum BenchCommand {
    static func run(models: [String], threads: [Int], runs: Int, warmup: Int, rounds: Int) throws {
        for path in models {
            let model = try Model(contentsOf: path)
            let input = try sampleInput(for: model)
            for count in threads {
                try model.setThreads(count)
                for _ in 0..<warmup { _ = try model.run([input]) }
                _ = try model.timeRuntimeLoop([input], iterations: warmup)
                var swift: [Double] = [], native: [Double] = []
                // Alternate one Swift run and one run of the runtime's own loop, so that load
                // from other processes hits both alike.
                for _ in 0 ..< rounds * runs {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try model.run([input])
                    swift.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                    if let loop = try model.timeRuntimeLoop([input], iterations: 1) { native += loop }
                }
                var record: [String: JSONValue] = [
                    "model": .string(path), "format": .string(model.format.rawValue), "threads": .number(Double(count)),
                    "input": .array(input.shape.map { .number(Double($0)) }), "runs": .number(Double(swift.count)),
                    "swift_median_s": .number(median(swift)), "swift_min_s": .number(swift.min() ?? 0),
                    "swift_samples_s": .array(swift.map(JSONValue.number)),
                ]
                if !native.isEmpty {
                    record["native_median_s"] = .number(median(native))
                    record["native_min_s"] = .number(native.min() ?? 0)
                    record["native_samples_s"] = .array(native.map(JSONValue.number))
                    record["paired_ratio_median"] = .number(median(zip(swift, native).map { $0 / $1 }))
                    record["native_loop"] = "C++ loop over libtorch forward (CTorchShim bbt_time_forward)"
                }
                print(JSONValue.object(record).serializedText(sortingKeys: true))
                fflush(nil)
            }
        }
    }

    /// A deterministic input in the model's input shape (batch 1) and type.
    static func sampleInput(for model: Model) throws -> Tensor {
        guard let description = model.inputs.first, let shape = description.shape else {
            throw ToolError(description: "\(model.path) does not record its input shape")
        }
        let concrete = shape.map { max($0, 1) }
        let count = concrete.reduce(1, *)
        switch description.elementType {
        case .int8?: return try Tensor(shape: concrete, storage: .int8((0..<count).map { Int8(truncatingIfNeeded: $0 * 7) }))
        case .uint8?: return try Tensor(shape: concrete, storage: .uint8((0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }))
        default: return try Tensor(shape: concrete, float32: (0..<count).map { Float(($0 * 7) % 256) / 255 })
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// A failure of the command-line tool itself, with what went wrong.
struct ToolError: Error, CustomStringConvertible {
    var description: String
}
