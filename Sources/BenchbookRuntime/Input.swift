import Foundation

/// Why ``input(_:password:)`` could not read an answer.
public enum InputError: Error, CustomStringConvertible {
    /// The front end said it cannot take input (`allow_stdin` was false).
    case notAllowed
    /// There is no kernel to ask (the code runs outside a notebook).
    case noKernel

    public var description: String {
        switch self {
        case .notAllowed:
            return "This front end does not accept keyboard input (allow_stdin is false); "
                + "set the value in the cell instead of asking for it."
        case .noKernel:
            return "input(_:) needs a Benchbook kernel; outside a notebook, read standard input."
        }
    }
}

/// Asks the person at the notebook for a line of text (Jupyter `input_request`).
/// - Parameters:
///   - prompt: shown before the input box.
///   - password: hide what is typed.
/// - Returns: the text entered, without a newline.
/// - Throws: ``InputError`` when the front end cannot take input.
public func input(_ prompt: String = "", password: Bool = false) throws -> String {
    let channel = KernelChannel.shared
    guard channel.isConnected else { throw InputError.noKernel }
    channel.send(["event": "input_request", "prompt": prompt, "password": password])
    guard let line = channel.readLine(),
          let data = line.data(using: .utf8),
          let reply = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
    else { throw InputError.noKernel }
    if let value = reply["value"] as? String { return value }
    throw InputError.notAllowed
}
