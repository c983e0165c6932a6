import BenchbookTensor

/// A whole preprocessing recipe as one value: change one field and compare the tensors,
/// predictions and timings that result.
///
/// The steps run in this order, each only when set: flatten alpha, gray to RGB or
/// grayscale, invert, auto-crop to the item, pad to square, contrast, resize, centre crop,
/// then conversion to a tensor (normalisation, channel order, layout, batch axis).
///
/// ```swift
/// let photo = try Image(contentsOfFile: "data/photos/chelsea.png")
/// var recipe = Preprocessing.mobileNetV2
/// recipe.resizeFilter = .nearest               // what does a cheaper filter change?
/// let input = try recipe.tensor(from: photo)   // [1, 3, 224, 224]
/// ```
public struct Preprocessing: Sendable, Equatable, CustomStringConvertible {
    /// How the image is resized.
    public enum Resize: Sendable, Equatable, CustomStringConvertible {
        /// Keep the size.
        case none
        /// Shorter side to this length, keeping the aspect ratio (torchvision `Resize(n)`).
        case shorterSide(Int)
        /// Exactly this size, ignoring the aspect ratio.
        case exact(Size)

        /// For example `shorter side 256`.
        public var description: String {
            switch self {
            case .none: "none"
            case .shorterSide(let side): "shorter side \(side)"
            case .exact(let size): "exactly \(size)"
            }
        }
    }

    /// A contrast adjustment.
    public enum Contrast: Sendable, Equatable, CustomStringConvertible {
        /// ``Image/autocontrasted(cutoff:)`` with this cutoff percent.
        case autocontrast(cutoff: Double)
        /// ``Image/equalized()``.
        case equalize

        /// For example `autocontrast 2%`.
        public var description: String {
            switch self {
            case .autocontrast(let cutoff): "autocontrast \(cutoff)%"
            case .equalize: "equalize"
            }
        }
    }

    /// Background that transparent pixels are flattened onto; `nil` drops alpha as it is.
    public var alphaBackground: RGBColor? = .white
    /// Turn a gray image into RGB (three equal channels), as drawing it into an RGB bitmap
    /// does on a phone; colour images are unchanged. For models that take three channels.
    public var convertsToRGB = false
    /// Grayscale weights, or `nil` to keep colour.
    public var grayscale: GrayscaleWeights?
    /// Make a negative (light items on black, as Fashion-MNIST expects).
    public var invert = false
    /// Auto-crop threshold (see ``Image/autoCropped(background:threshold:margin:)``), or `nil`.
    public var autoCropThreshold: Int?
    /// Pixels of background kept around an auto-cropped item.
    public var autoCropMargin = 0
    /// Pad to a square with this colour before resizing, or `nil`.
    public var padToSquare: RGBColor?
    /// Contrast adjustment, or `nil`.
    public var contrast: Contrast?
    /// The resize step.
    public var resize: Resize = .none
    /// The resampling filter of the resize step.
    public var resizeFilter: ResizeFilter = .bilinear
    /// Centre crop after resizing, or `nil`.
    public var centerCrop: Size?
    /// How samples become numbers.
    public var normalization: Normalization = .unit
    /// Axis order of the tensor.
    public var layout: Layout = .nchw
    /// Colour channel order of the tensor.
    public var channelOrder: ChannelOrder = .rgb

    /// A recipe that leaves the image as it is and makes a [0, 1] NCHW tensor; set fields to taste.
    public init() {}

    /// PyTorch Mobile MobileNetV2 (torchvision ImageNet evaluation): shorter side 256
    /// (bilinear), centre crop 224, ImageNet mean/std, RGB, NCHW `[1, 3, 224, 224]`.
    public static let mobileNetV2: Preprocessing = {
        var recipe = Preprocessing()
        recipe.convertsToRGB = true
        recipe.resize = .shorterSide(256)
        recipe.centerCrop = Size(square: 224)
        recipe.normalization = .imageNet
        return recipe
    }()

    /// The Fashion-MNIST app on a product photo: BT.601 gray, inverted to light-on-black,
    /// cropped to the item with a 2 px margin, padded square with black, 28x28 (box
    /// filter), [0, 1], NCHW `[1, 1, 28, 28]`.
    public static let fashionMNIST: Preprocessing = {
        var recipe = Preprocessing()
        recipe.grayscale = .bt601
        recipe.invert = true
        recipe.autoCropThreshold = 16
        recipe.autoCropMargin = 2
        recipe.padToSquare = .black
        recipe.resize = .exact(Size(square: 28))
        recipe.resizeFilter = .box
        return recipe
    }()

    /// The course's EfficientNet-Lite0 files (what they record as their preprocessing):
    /// RGB, shorter side 256 (bilinear), centre crop 224, `(v - 127) / 128`, NCHW
    /// `[1, 3, 224, 224]`. (Its TensorFlow Lite files take NHWC 0...255 values and normalise
    /// inside; ``Model`` reads each file's own recipe.)
    public static let efficientNetLite0: Preprocessing = {
        var recipe = mobileNetV2
        recipe.normalization = .efficientNetLite
        return recipe
    }()

    /// The course's TensorFlow Lite app (seed 002): the photo squashed to 224x224 (aspect
    /// ratio not kept, as drawing it into a 224x224 bitmap does), RGB bytes as 0...255
    /// values, NHWC `[1, 224, 224, 3]`; the `/127.5 - 1` normalisation lives inside its model.
    public static let tfliteApp: Preprocessing = {
        var recipe = Preprocessing()
        recipe.convertsToRGB = true
        recipe.resize = .exact(Size(square: 224))
        recipe.normalization = .raw
        recipe.layout = .nhwc
        return recipe
    }()

    /// The course's PyTorch Mobile apps (seeds 000 and 003): the photo squashed to 224x224,
    /// then ImageNet mean/std in the app, NCHW `[1, 3, 224, 224]`.
    public static let pytorchMobileApp: Preprocessing = {
        var recipe = tfliteApp
        recipe.normalization = .imageNet
        recipe.layout = .nchw
        return recipe
    }()

    /// Runs the image steps (everything before the tensor conversion).
    /// - Parameter image: the input image.
    /// - Throws: ``ImageError`` from a step, for example an auto-crop that finds no item or
    ///   a centre crop larger than the resized image.
    public func apply(to image: Image) throws(ImageError) -> Image {
        var result = image
        if let alphaBackground { result = result.flattened(onto: alphaBackground) }
        if result.format.hasAlpha { result = result.converted(to: result.format.colorChannelCount == 1 ? .gray : .rgb) }
        if convertsToRGB && result.format == .gray { result = result.converted(to: .rgb) }
        if let grayscale { result = result.grayscale(weights: grayscale) }
        if invert { result = result.inverted() }
        if let autoCropThreshold {
            result = try result.autoCropped(threshold: autoCropThreshold, margin: autoCropMargin)
        }
        if let padToSquare { result = result.paddedToSquare(with: padToSquare) }
        switch contrast {
        case .autocontrast(let cutoff): result = try result.autocontrasted(cutoff: cutoff)
        case .equalize: result = result.equalized()
        case nil: break
        }
        switch resize {
        case .none: break
        case .shorterSide(let side): result = try result.resized(shorterSide: side, filter: resizeFilter)
        case .exact(let size): result = try result.resized(to: size, filter: resizeFilter)
        }
        if let centerCrop { result = try result.centerCropped(to: centerCrop) }
        return result
    }

    /// Runs every step and returns the model input tensor (with a batch axis).
    /// - Parameter image: the input image.
    /// - Throws: ``ImageError`` from a step or the conversion.
    public func tensor(from image: Image) throws(ImageError) -> Tensor {
        try apply(to: image).tensor(normalization: normalization, layout: layout, channelOrder: channelOrder)
    }

    /// The steps that are set, in order, one per line.
    public var description: String {
        var steps: [String] = []
        if let alphaBackground { steps.append("flatten alpha onto (\(alphaBackground.red), \(alphaBackground.green), \(alphaBackground.blue))") }
        if convertsToRGB { steps.append("gray to RGB") }
        if let grayscale { steps.append("grayscale \(grayscale.rawValue)") }
        if invert { steps.append("invert") }
        if let autoCropThreshold { steps.append("auto-crop threshold \(autoCropThreshold), margin \(autoCropMargin)") }
        if padToSquare != nil { steps.append("pad to square") }
        if let contrast { steps.append(contrast.description) }
        if resize != .none { steps.append("resize \(resize) (\(resizeFilter.rawValue))") }
        if let centerCrop { steps.append("centre crop \(centerCrop)") }
        steps.append("tensor \(normalization.name), \(channelOrder.rawValue.uppercased()), \(layout.rawValue)")
        return "Preprocessing:\n" + steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}
