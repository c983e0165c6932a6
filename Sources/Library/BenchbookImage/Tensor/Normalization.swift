/// How 8-bit samples become model input numbers: `(v * scale - mean[c]) / std[c]`,
/// computed in Float32 per channel.
public struct Normalization: Sendable, Equatable, CustomStringConvertible {
    /// A short name for printing, for example `imageNet`.
    public var name: String
    /// Multiplier applied to the 0...255 sample first (1/255 for the [0, 1] presets).
    public var scale: Float
    /// Per-channel mean subtracted after scaling (one value applies to every channel).
    public var mean: [Float]
    /// Per-channel standard deviation divided by last (one value applies to every channel).
    public var std: [Float]

    /// Creates a normalisation.
    /// - Parameters:
    ///   - name: a short name for printing.
    ///   - scale: multiplier applied to the sample first.
    ///   - mean: per-channel mean (or one value for all channels).
    ///   - std: per-channel standard deviation (or one value for all channels).
    public init(name: String, scale: Float, mean: [Float], std: [Float]) {
        self.name = name
        self.scale = scale
        self.mean = mean
        self.std = std
    }

    /// torchvision's ImageNet statistics: `ToTensor()` then
    /// `Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])` (PyTorch Mobile MobileNetV2).
    public static let imageNet = Normalization(name: "imageNet", scale: 1 / 255,
                                               mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225])
    /// `v / 255`, values in [0, 1] (the Fashion-MNIST app, torchvision `ToTensor()`).
    public static let unit = Normalization(name: "unit", scale: 1 / 255, mean: [0], std: [1])
    /// `v / 127.5 - 1`, values in [-1, 1] (TensorFlow Lite MobileNet, Keras `preprocess_input`).
    public static let symmetric = Normalization(name: "symmetric", scale: 1 / 127.5, mean: [1], std: [1])
    /// The raw samples 0...255 as floats.
    public static let raw = Normalization(name: "raw", scale: 1, mean: [0], std: [1])
    /// `(v - 127) / 128`, values in [-0.99, 1] (TensorFlow's EfficientNet-Lite: mean 127, std 128
    /// on the 0...255 scale; the course's EfficientNet-Lite0 weights were trained with it).
    public static let efficientNetLite = Normalization(name: "efficientNetLite", scale: 1, mean: [127], std: [128])

    /// Your own statistics on the [0, 1] scale: `(v / 255 - mean) / std`.
    /// - Parameters:
    ///   - mean: per-channel mean in [0, 1] units.
    ///   - std: per-channel standard deviation in [0, 1] units.
    public static func custom(mean: [Float], std: [Float]) -> Normalization {
        Normalization(name: "custom", scale: 1 / 255, mean: mean, std: std)
    }

    /// The Float value for each of the 256 samples of one channel, computed exactly as
    /// NumPy would: `(Float32(v) * scale - mean) / std` (for `scale = 1/255` as `v / 255`).
    /// - Parameter channel: the channel index.
    public func lookupTable(channel: Int) -> [Float] {
        let m = mean.count == 1 ? mean[0] : mean[channel]
        let s = std.count == 1 ? std[0] : std[channel]
        return (0..<256).map { value in
            let scaled: Float = switch scale {
            case 1 / 255: Float(value) / 255
            case 1 / 127.5: Float(value) / 127.5
            default: Float(value) * scale
            }
            return (scaled - m) / s
        }
    }

    /// The name and statistics.
    public var description: String { "Normalization.\(name)(scale: \(scale), mean: \(mean), std: \(std))" }
}
