import Foundation
public import JSONCore

/// Sends the displays made on the current thread somewhere other than the cell's output,
/// for as long as a body runs: an Output widget collects them this way.
///
/// `display(...)`, display handles and `clearOutput(wait:)` called on the capturing
/// thread go to the capture; other threads are not affected. Text printed with `print`
/// is not captured (it goes to the request's standard output).
public struct DisplayCapture: Sendable {
    /// Receives a display: its bundle, display id and whether it updates an earlier one.
    public var display: @Sendable (MimeBundle, _ displayID: String?, _ isUpdate: Bool) -> Void
    /// Receives `clearOutput(wait:)`.
    public var clear: @Sendable (_ wait: Bool) -> Void

    /// Creates a capture from its two receivers.
    public init(display: @escaping @Sendable (MimeBundle, String?, Bool) -> Void,
                clear: @escaping @Sendable (Bool) -> Void) {
        self.display = display
        self.clear = clear
    }

    private static let key = "benchbook.display-capture"

    /// The capture of the current thread, if any.
    static var current: DisplayCapture? {
        (Thread.current.threadDictionary[key] as? Box)?.capture
    }

    /// Runs `body` with displays on this thread going to this capture (nested captures:
    /// the innermost wins, the outer one is back afterwards).
    public func capturing<T>(_ body: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[Self.key]
        dictionary[Self.key] = Box(capture: self)
        defer { dictionary[Self.key] = outer }
        return try body()
    }

    private final class Box: NSObject {
        let capture: DisplayCapture
        init(capture: DisplayCapture) { self.capture = capture }
    }
}

extension MimeBundle {
    /// The bundle as the `data` and `metadata` of a Jupyter `display_data` output (what an
    /// Output widget's `outputs` list holds).
    public var displayDataJSON: (data: JSONValue, metadata: JSONValue) { (dataJSON, metadataJSON) }
}
