import BenchbookImage
import BenchbookTensor
import JSONCore

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

    /// Parses the JSON; `nil` when it is empty or not an object. A member of the wrong kind
    /// is read as absent (a list with one element of the wrong kind, as a whole).
    init?(json: String) {
        guard case .object(let object)? = try? JSONValue(parsing: json) else { return nil }
        func tensors(_ key: String) -> [TensorDescription] {
            (Self.every(object[key], \.objectValue) ?? []).map { entry in
                TensorDescription(name: entry["name"]?.stringValue,
                                  shape: Self.every(entry["shape"], \.intValue),
                                  elementType: entry["dtype"]?.stringValue.flatMap(ElementType.init(rawValue:)),
                                  layout: entry["layout"]?.stringValue.flatMap(Layout.init(rawValue:)))
            }
        }
        inputs = tensors("inputs")
        outputs = tensors("outputs")
        labels = Self.every(object["labels"], \.stringValue)
        preprocessing = object["preprocessing"]?.objectValue.flatMap(Self.recipe)
        note = object["note"]?.stringValue
    }

    /// The elements of an array read by `element`; nil when it is not an array or one of
    /// its elements is not of that kind.
    private static func every<Element>(_ value: JSONValue?, _ element: (JSONValue) -> Element?) -> [Element]? {
        guard let elements = value?.arrayValue else { return nil }
        var read: [Element] = []
        read.reserveCapacity(elements.count)
        for value in elements {
            guard let one = element(value) else { return nil }
            read.append(one)
        }
        return read
    }

    /// A ``Preprocessing`` from the recorded keys: `shorter_side` or `size` (exact, squashed),
    /// `center_crop`, `filter`, `scale`, `mean`, `std`, `layout`, `channels` ("RGB" or "gray").
    private static func recipe(_ entry: [String: JSONValue]) -> Preprocessing? {
        var recipe = Preprocessing()
        if let side = entry["shorter_side"]?.intValue {
            recipe.resize = .shorterSide(side)
        } else if let size = entry["size"]?.intValue {
            recipe.resize = .exact(Size(square: size))
        }
        if let crop = entry["center_crop"]?.intValue { recipe.centerCrop = Size(square: crop) }
        if let name = entry["filter"]?.stringValue {
            guard let filter = ResizeFilter(rawValue: name) else { return nil }
            recipe.resizeFilter = filter
        }
        let scale = entry["scale"]?.doubleValue.map(Float.init) ?? 1
        let mean = every(entry["mean"], \.doubleValue)?.map(Float.init) ?? [0]
        let std = every(entry["std"], \.doubleValue)?.map(Float.init) ?? [1]
        let known: [Normalization] = [.imageNet, .unit, .symmetric, .raw, .efficientNetLite]
        recipe.normalization = known.first { $0.scale == scale && $0.mean == mean && $0.std == std }
            ?? Normalization(name: "recorded", scale: scale, mean: mean, std: std)
        if let layout = entry["layout"]?.stringValue.flatMap(Layout.init(rawValue:)) { recipe.layout = layout }
        switch entry["channels"]?.stringValue {
        case "RGB"?: recipe.convertsToRGB = true
        case "gray"?: recipe.grayscale = .bt601
        default: break
        }
        return recipe
    }
}
