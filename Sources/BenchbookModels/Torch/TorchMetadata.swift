import BenchbookTensor
import Foundation

/// The input/output description a course model carries as its extra file `benchbook.json`
/// (written by scripts/models/export_fashion_torch.py and make_mobilenet.py).
struct TorchMetadata {
    var inputs: [TensorDescription]
    var outputs: [TensorDescription]
    var labels: [String]?

    /// Parses the JSON; `nil` when it is empty or not the expected shape.
    init?(json: String) {
        guard !json.isEmpty, let data = json.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        func tensors(_ key: String) -> [TensorDescription] {
            (object[key] as? [[String: Any]] ?? []).map { entry in
                TensorDescription(name: entry["name"] as? String,
                                  shape: (entry["shape"] as? [Int]),
                                  elementType: (entry["dtype"] as? String).flatMap(ElementType.init(rawValue:)),
                                  layout: (entry["layout"] as? String).flatMap(Layout.init(rawValue:)))
            }
        }
        inputs = tensors("inputs")
        outputs = tensors("outputs")
        labels = object["labels"] as? [String]
    }
}
