import JSONCore

/// Receives what a running cell produces.
///
/// Thread rules: called on the thread that called ``CellEngine/execute(_:label:output:)``
/// while the cell runs. Output written between cells by a thread an earlier cell started
/// goes to the last cell's output (as ipykernel does), on a host reader thread: only
/// `stream`, `display` and `comm` are called that way.
public protocol CellOutput: AnyObject, Sendable {
    /// Text the cell wrote to `stdout` or `stderr`, as it was written.
    func stream(name: String, text: String)
    /// A `display(...)` call, or an update of an earlier display.
    func display(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool)
    /// The value of the cell's last expression.
    func result(data: JSONValue, metadata: JSONValue)
    /// Clears the cell's output so far.
    func clearOutput(wait: Bool)
    /// A comm message from code in the host (a widget opened, updated or closed), or a
    /// close of a comm that the host lost.
    func comm(_ traffic: CommTraffic)
    /// Asks the user for a line of input.
    /// - Parameters:
    ///   - prompt: shown before the input box.
    ///   - password: hide what is typed.
    ///   - isStopped: polled while waiting; once true (the cell was interrupted), give up
    ///     and answer ``InputAnswer/interrupted``.
    func requestInput(prompt: String, password: Bool, isStopped: () -> Bool) -> InputAnswer
}

/// The answer to a cell's request for keyboard input.
public enum InputAnswer: Sendable, Equatable {
    /// What the user typed.
    case text(String)
    /// The front end does not take input (`allow_stdin` is false).
    case notAllowed
    /// The cell was interrupted while it waited.
    case interrupted
}

/// A failed cell as Jupyter shows it: error name, value and traceback lines.
public struct CellError: Error, Sendable, Equatable {
    public var name: String
    public var value: String
    public var traceback: [String]

    /// Creates an error; the traceback defaults to one line, `name: value`.
    public init(name: String, value: String, traceback: [String]? = nil) {
        self.name = name
        self.value = value
        self.traceback = traceback ?? ["\(name): \(value)"]
    }
}
