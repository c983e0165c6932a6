import BenchbookTensor

/// Why a model could not be loaded or run. Each description names the file and says
/// what to do next.
public enum ModelError: Error, CustomStringConvertible, Equatable {
    /// There is no file at the path.
    case fileNotFound(path: String)
    /// The file exists but cannot be read.
    case unreadableFile(path: String, reason: String)
    /// Neither the extension nor the contents say which format the file is.
    case unknownFormat(path: String)
    /// The contents are of another format than the extension or the caller said.
    case wrongFormat(path: String, expected: ModelFormat, found: String)
    /// The runtime rejected the file.
    case corruptModel(path: String, format: ModelFormat?, reason: String)
    /// The runtime's shared library could not be found or opened.
    case runtimeLibraryMissing(runtime: String, searched: [String], reason: String)
    /// The file is sound, but running it needs a part this runtime does not link (an
    /// ExecuTorch program delegating to another backend, or calling an operator without a kernel).
    case runtimeLacks(path: String, format: ModelFormat, missing: String)
    /// `run` got a different number of inputs than the model takes.
    case inputCount(path: String, expected: Int, given: Int)
    /// An input's shape does not fit the model (`-1` in `expected` matches any size).
    case inputShape(path: String, input: String, expected: [Int], given: [Int])
    /// An input's element type is not the model's.
    case inputType(path: String, input: String, expected: ElementType, given: ElementType)
    /// The runtime failed while running the model.
    case runFailed(path: String, reason: String)
    /// A setting this runtime or build does not support.
    case unsupported(String)

    /// A plain-text rendering.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "No model file at \(path). Check the path (relative paths start at the current directory), "
                + "or run `make models` to generate the set-up models."
        case .unreadableFile(let path, let reason):
            return "Cannot read the model file \(path): \(reason). Check its permissions."
        case .unknownFormat(let path):
            return "Cannot tell the format of \(path): the extension is not .pt, .ptl, .tflite or .pte and the contents "
                + "are not a TorchScript archive, a TensorFlow Lite FlatBuffer or an ExecuTorch program. "
                + "Pass `format:` to choose one."
        case .wrongFormat(let path, let expected, let found):
            return "\(path) was to be loaded as \(expected), but its contents are \(found). Rename the file "
                + "or pass the right `format:`."
        case .corruptModel(let path, let format, let reason):
            let runtime = format.map { " as \($0)" } ?? ""
            return "Cannot load \(path)\(runtime): \(reason). The file is damaged or not a model of this format; "
                + "re-create it with the script that made it."
        case .runtimeLibraryMissing(let runtime, let searched, let reason):
            let places = searched.isEmpty ? "" : " Looked in: " + searched.joined(separator: ", ") + "."
            let remedy = runtime == "ExecuTorch"
                ? "Run `make setup` (installs the executorch wheel into .venv), then `make build`."
                : "Run `make setup` (installs ai-edge-litert into .venv) or set BENCHBOOK_LITERT_LIBRARY to libLiteRt.so."
            return "The \(runtime) runtime library is not available: \(reason).\(places) " + remedy
        case .runtimeLacks(let path, let format, let missing):
            return "Cannot run \(path) as \(format): \(missing). The file itself is sound; this runtime was built "
                + "without that part."
        case .inputCount(let path, let expected, let given):
            return "\(path) takes \(expected) input tensor(s) but \(given) were given."
        case .inputShape(let path, let input, let expected, let given):
            return "Input '\(input)' of \(path) must have shape \(Self.shapeText(expected)) but has shape "
                + "\(Self.shapeText(given)). Resize or reshape the tensor (for one image add the batch axis)."
        case .inputType(let path, let input, let expected, let given):
            return "Input '\(input)' of \(path) must be \(expected) but is \(given). Convert the tensor "
                + "(quantised models take the quantised type; see the model's description)."
        case .runFailed(let path, let reason):
            return "Running \(path) failed: \(reason)."
        case .unsupported(let text):
            return text
        }
    }

    /// A shape as text, `-1` written as `?`.
    static func shapeText(_ shape: [Int]) -> String {
        "[" + shape.map { $0 < 0 ? "?" : String($0) }.joined(separator: ", ") + "]"
    }
}
