import Foundation
internal import HostProtocol

/// Shows values in the notebook, below the running cell, in order.
///
/// Works from anywhere in a cell, any number of times. Values that adopt
/// ``NotebookDisplayable`` show their richest form (a chart as an image); others show
/// their description. Outside a kernel the plain text is printed.
/// - Parameter values: the values to show, each as its own output.
public func display(_ values: Any...) {
    for value in values {
        DisplayHandle.show(mimeBundle(of: value), displayID: nil, isUpdate: false)
    }
}

/// A display that can be replaced in place, for progress and live results.
///
/// ```swift
/// let progress = DisplayHandle(showing: "starting")
/// progress.update("50 %")
/// ```
public struct DisplayHandle: Sendable {
    /// The Jupyter `display_id` shared by the original output and its updates.
    public let id: String

    /// Shows a value and returns a handle that can replace it later.
    /// - Parameter value: the first content of the display.
    public init(showing value: Any) {
        id = UUID().uuidString
        Self.show(mimeBundle(of: value), displayID: id, isUpdate: false)
    }

    /// Replaces what this display shows (`update_display_data`).
    /// - Parameter value: the new content.
    public func update(_ value: Any) {
        Self.show(mimeBundle(of: value), displayID: id, isUpdate: true)
    }

    static func show(_ bundle: MimeBundle, displayID: String?, isUpdate: Bool) {
        if let capture = DisplayCapture.current {
            capture.display(bundle, displayID, isUpdate)
            return
        }
        let channel = KernelChannel.shared
        guard channel.isConnected else {
            if !isUpdate || displayID == nil { print(bundle.data["text/plain"] ?? "") }
            return
        }
        channel.send(bundle.displayEvent(displayID: displayID, isUpdate: isUpdate))
    }
}

/// Clears the output of the running cell (Jupyter `clear_output`).
/// - Parameter wait: wait until new output arrives before clearing, which avoids
///   flicker in animations and progress displays.
public func clearOutput(wait: Bool = false) {
    if let capture = DisplayCapture.current {
        capture.clear(wait)
        return
    }
    let channel = KernelChannel.shared
    guard channel.isConnected else { return }
    channel.send(.clearOutput(wait: wait))
}
