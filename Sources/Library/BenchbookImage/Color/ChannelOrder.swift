/// The order of colour channels a model expects.
public enum ChannelOrder: String, Sendable {
    /// Red, green, blue (PyTorch, TensorFlow Lite, Pillow).
    case rgb
    /// Blue, green, red (OpenCV, Caffe-era models).
    case bgr
}
