import Foundation

/// The file formats a ``Model`` can load, each with its runtime.
public enum ModelFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// TorchScript (`.pt`), loaded with libtorch's `torch::jit::load`.
    case torchScript = "TorchScript"
    /// PyTorch Lite (`.ptl`), loaded with libtorch's mobile loader `_load_for_mobile`.
    case pyTorchLite = "PyTorch Lite"
    /// TensorFlow Lite (`.tflite`), run by LiteRT on the CPU through XNNPACK.
    case tensorFlowLite = "TensorFlow Lite"
    /// An ExecuTorch program (`.pte`), made by `torch.export`, run by the ExecuTorch runtime:
    /// XNNPACK for the blocks delegated to it, ExecuTorch's kernels for the rest.
    case execuTorch = "ExecuTorch"

    /// The format's usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .torchScript: "pt"
        case .pyTorchLite: "ptl"
        case .tensorFlowLite: "tflite"
        case .execuTorch: "pte"
        }
    }

    /// Whether libtorch runs this format (TorchScript and PyTorch Lite).
    var runsOnLibtorch: Bool { self == .torchScript || self == .pyTorchLite }

    /// The runtime that executes this format.
    public var runtimeName: String {
        switch self {
        case .torchScript, .pyTorchLite: "libtorch 1.13"
        case .tensorFlowLite: "LiteRT (libLiteRt.so, XNNPACK)"
        case .execuTorch: ExecuTorchProgram.runtimeName
        }
    }

    /// A plain-text rendering.
    public var description: String { rawValue }

    /// The format a file extension names, or `nil` for an extension Benchbook does not know.
    /// - Parameter fileExtension: for example `"ptl"`; case is ignored.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "pt", "pth", "torchscript": self = .torchScript
        case "ptl": self = .pyTorchLite
        case "tflite", "lite": self = .tensorFlowLite
        case "pte": self = .execuTorch
        default: return nil
        }
    }

    /// What the first bytes of a file say its format is.
    enum Signature: Equatable {
        /// A FlatBuffer with the TensorFlow Lite identifier `TFL3`.
        case tensorFlowLite
        /// A FlatBuffer with an ExecuTorch program identifier (`ET12` for this runtime).
        case execuTorch
        /// A zip archive whose entries include `bytecode.pkl` (PyTorch Lite).
        case pyTorchLiteZip
        /// A zip archive without bytecode (TorchScript).
        case torchScriptZip
        /// Something else.
        case unknown

        /// The format this signature belongs to, if any.
        var format: ModelFormat? {
            switch self {
            case .tensorFlowLite: .tensorFlowLite
            case .execuTorch: .execuTorch
            case .pyTorchLiteZip: .pyTorchLite
            case .torchScriptZip: .torchScript
            case .unknown: nil
            }
        }

        /// Reads the signature from file contents.
        init(contents: Data) {
            if contents.count >= 8, contents[contents.startIndex + 4 ..< contents.startIndex + 8] == Data("TFL3".utf8) {
                self = .tensorFlowLite
            } else if contents.count >= 8, contents[contents.startIndex + 4 ..< contents.startIndex + 6] == Data("ET".utf8),
                      contents[contents.startIndex + 6 ..< contents.startIndex + 8].allSatisfy({ (0x30...0x39).contains($0) }) {
                self = .execuTorch
            } else if contents.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
                self = contents.range(of: Data("bytecode.pkl".utf8)) != nil ? .pyTorchLiteZip : .torchScriptZip
            } else {
                self = .unknown
            }
        }
    }

    /// Decides the format of a file: `requested` when given, else the extension, else the
    /// contents; then checks that the contents agree.
    /// - Parameters:
    ///   - path: the model file.
    ///   - requested: a format forced by the caller.
    /// - Returns: the format to load the file with.
    /// - Throws: ``ModelError`` when the file is missing or unreadable, when its format
    ///   cannot be told, or when its contents are of another format than chosen.
    static func detect(path: String, requested: ModelFormat?) throws(ModelError) -> ModelFormat {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw .unreadableFile(path: path, reason: "it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadableFile(path: path, reason: "it cannot be opened for reading")
        }
        defer { try? handle.close() }
        // FlatBuffer formats say what they are in their first bytes; a zip archive's flavour
        // needs its entry names, so only an archive is read whole (the runtimes map the rest).
        var contents = (try? handle.read(upToCount: 64)) ?? Data()
        if contents.starts(with: [0x50, 0x4B, 0x03, 0x04]) { contents += (try? handle.readToEnd()) ?? Data() }
        if contents.isEmpty { throw .corruptModel(path: path, format: requested, reason: "the file is empty") }
        let signature = Signature(contents: contents)
        let chosen = requested ?? ModelFormat(fileExtension: (path as NSString).pathExtension) ?? signature.format
        guard let chosen else { throw .unknownFormat(path: path) }
        switch (chosen, signature) {
        case (.tensorFlowLite, .pyTorchLiteZip), (.tensorFlowLite, .torchScriptZip), (.tensorFlowLite, .execuTorch),
             (.execuTorch, .pyTorchLiteZip), (.execuTorch, .torchScriptZip), (.execuTorch, .tensorFlowLite),
             (.torchScript, .execuTorch), (.pyTorchLite, .execuTorch):
            throw .wrongFormat(path: path, expected: chosen, found: signature.format!.rawValue)
        case (.torchScript, .tensorFlowLite), (.pyTorchLite, .tensorFlowLite):
            throw .wrongFormat(path: path, expected: chosen, found: ModelFormat.tensorFlowLite.rawValue)
        default:
            // Agreeing, unknown (damaged or not a model: the runtime says what is wrong), or
            // a zip archive whose TorchScript/Lite flavour libtorch itself will check.
            return chosen
        }
    }
}
