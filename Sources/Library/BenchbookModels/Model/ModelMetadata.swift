import BenchbookImage
import BenchbookTensor
import Foundation

/// What a course model file says about itself in its `benchbook.json` (a TorchScript/PyTorch
/// Lite extra file, or a TensorFlow Lite metadata buffer, written by scripts/models/): input
/// and output descriptions, class names, the preprocessing it expects, and a note.
struct ModelMetadata {
    /// The name of the JSON entry in a model file.
    static let entryName = "benchbook.json"

    var inputs: [TensorDescription]
    var outputs: [TensorDescription]
    var labels: [String]?
    var preprocessing: Preprocessing?
    var note: String?

    /// Parses the JSON; `nil` when it is empty or not an object.
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
        preprocessing = (object["preprocessing"] as? [String: Any]).flatMap(Self.recipe)
        note = object["note"] as? String
    }

    /// A ``Preprocessing`` from the recorded keys: `shorter_side` or `size` (exact, squashed),
    /// `center_crop`, `filter`, `scale`, `mean`, `std`, `layout`, `channels` ("RGB" or "gray").
    private static func recipe(_ entry: [String: Any]) -> Preprocessing? {
        var recipe = Preprocessing()
        if let side = entry["shorter_side"] as? Int {
            recipe.resize = .shorterSide(side)
        } else if let size = entry["size"] as? Int {
            recipe.resize = .exact(Size(square: size))
        }
        if let crop = entry["center_crop"] as? Int { recipe.centerCrop = Size(square: crop) }
        if let name = entry["filter"] as? String {
            guard let filter = ResizeFilter(rawValue: name) else { return nil }
            recipe.resizeFilter = filter
        }
        let scale = (entry["scale"] as? NSNumber)?.floatValue ?? 1
        let mean = (entry["mean"] as? [NSNumber])?.map(\.floatValue) ?? [0]
        let std = (entry["std"] as? [NSNumber])?.map(\.floatValue) ?? [1]
        let known: [Normalization] = [.imageNet, .unit, .symmetric, .raw, .efficientNetLite]
        recipe.normalization = known.first { $0.scale == scale && $0.mean == mean && $0.std == std }
            ?? Normalization(name: "recorded", scale: scale, mean: mean, std: std)
        if let layout = (entry["layout"] as? String).flatMap(Layout.init(rawValue:)) { recipe.layout = layout }
        switch entry["channels"] as? String {
        case "RGB"?: recipe.convertsToRGB = true
        case "gray"?: recipe.grayscale = .bt601
        default: break
        }
        return recipe
    }
}
