import Foundation
internal import HostProtocol

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
/// - Throws: ``InputError`` when the front end cannot take input; ``InterruptedError``
///   when the user interrupts the cell while it waits.
public func input(_ prompt: String = "", password: Bool = false) throws -> String {
    let channel = KernelChannel.shared
    guard channel.isConnected else { throw InputError.noKernel }
    channel.send(.inputRequest(prompt: prompt, password: password))
    // The next command is the answer: the kernel sends nothing else while a cell waits.
    guard case .inputReply(let reply)? = try? channel.readCommand() else { throw InputError.noKernel }
    switch reply {
    case .value(let text): return text
    case .notAllowed: throw InputError.notAllowed
    case .interrupted:
        Interrupt.clear()
        throw InterruptedError(activity: "Waiting for input")
    }
}
