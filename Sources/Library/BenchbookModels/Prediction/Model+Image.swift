import BenchbookImage
import BenchbookTensor

extension Model {
    /// The input tensor this model gets for a photo: the recipe's image steps and
    /// normalisation, in the model's input layout, quantised with the input's scale and zero
    /// point when the model takes uint8 or int8.
    ///
    /// ```swift
    /// let model = try Model(contentsOf: "../models/generated/efficientnet_lite0.ptl")
    /// let photo = try Image(contentsOfFile: "data/photos/chelsea.png")
    /// let input = try model.input(from: photo)        // [1, 3, 224, 224] float32
    /// ```
    /// - Parameters:
    ///   - image: the decoded photo (any size, gray or colour, with or without alpha).
    ///   - preprocessing: the recipe; defaults to the one the file records
    ///     (``preprocessing``). Its layout is replaced by the model's input layout when the
    ///     model declares one.
    /// - Throws: ``ModelError/unsupported(_:)`` when no recipe is given and the file records
    ///   none, or when a quantised input has no scale; the recipe's `ImageError`.
    public func input(from image: Image, preprocessing: Preprocessing? = nil) throws -> Tensor {
        guard var recipe = preprocessing ?? self.preprocessing else {
            throw ModelError.unsupported("\(path) records no preprocessing: pass one, for example "
                + "`preprocessing: .efficientNetLite0` or `.fashionMNIST`.")
        }
        let description = inputs.first
        if let layout = description?.layout { recipe.layout = layout }
        let tensor = try recipe.tensor(from: image)
        switch description?.elementType {
        case .uint8?, .int8?:
            guard let quantization = description?.quantization, quantization.scale > 0 else {
                throw ModelError.unsupported("\(path) takes \(description!.elementType!) input without a scale and zero point.")
            }
            return try tensor.quantized(with: quantization.parameters, to: description!.elementType!)
        default:
            return tensor
        }
    }

    /// Classifies a photo: preprocesses it as the file records (or as `preprocessing` says),
    /// runs the model and ranks the classes with their names.
    ///
    /// ```swift
    /// let model = try Model(contentsOf: "../models/generated/efficientnet_lite0_int8.tflite")
    /// let prediction = try model.classify(try Image(contentsOfFile: "data/photos/coffee.png"))
    /// print(prediction.top.label, prediction.top.probability)
    /// ```
    /// - Parameters:
    ///   - image: the decoded photo.
    ///   - preprocessing: the recipe; defaults to the file's (see ``input(from:preprocessing:)``).
    ///   - labels: class names; defaults to the file's.
    /// - Returns: every class by probability (softmax of the dequantised output).
    /// - Throws: ``ModelError`` or the recipe's `ImageError`.
    public func classify(_ image: Image, preprocessing: Preprocessing? = nil, labels: [String]? = nil) throws -> Prediction {
        try classify(input(from: image, preprocessing: preprocessing), labels: labels)
    }

    /// The five most probable classes for a photo, best first, as the course's apps show
    /// them (`predictTop5`), in any format: float or int8, PyTorch or TensorFlow Lite.
    ///
    /// ```swift
    /// let model = try Model(contentsOf: "../models/generated/efficientnet_lite0.ptl")
    /// for entry in try model.predictTop5(try Image(contentsOfFile: "data/photos/rocket.jpg")) {
    ///     print(entry)                                 // "missile 42.1 %"
    /// }
    /// ```
    /// - Parameters:
    ///   - image: the decoded photo.
    ///   - preprocessing: the recipe; defaults to the file's.
    /// - Returns: five entries (fewer when the model has fewer classes).
    /// - Throws: as ``classify(_:preprocessing:labels:)-(Image,_,_)``.
    public func predictTop5(_ image: Image, preprocessing: Preprocessing? = nil) throws -> [Prediction.Entry] {
        try classify(image, preprocessing: preprocessing).top(5)
    }
}

extension Quantization {
    /// The same scale and zero point as the tensor library's parameters.
    public var parameters: QuantizationParameters { QuantizationParameters(scale: scale, zeroPoint: zeroPoint) }
}
