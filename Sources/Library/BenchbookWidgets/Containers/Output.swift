import Foundation
public import BenchbookRuntime
public import JSONCore

/// An output area (`Output`): displays made while it captures appear inside it instead of
/// below the cell, including displays made by widget callbacks between cells.
///
/// ```swift
/// let out = Output()
/// display(out)
/// out.replace { display("the newest result") }   // replaces what it shows, in place
/// ```
///
/// Displays are kept in the model's `outputs` list, so they show in every view and are
/// saved with the notebook's widget state. Text printed inside ``capture(_:)`` by a widget
/// callback is captured too (the model's `msg_id` names the callback's request, as in
/// ipywidgets); text printed in a cell goes below the cell.
public final class Output: Control, @unchecked Sendable {
    /// Serialises changes of the `outputs` list.
    private let outputLock = NSLock()

    /// Creates and opens an empty output area.
    public init() {
        super.init(kind: "Output", name: .output, state: ["msg_id": "", "outputs": []])
    }

    /// The outputs shown, as Jupyter output objects (`output_type`, `data`, ...).
    public var outputs: [JSONValue] { attribute("outputs")?.arrayValue ?? [] }

    public override var description: String { "Output(\(outputs.count) outputs)" }

    /// Runs `body`, adding its displays (and, in a widget callback, its printed text) to
    /// what the area shows, each as it is made.
    public func capture<T>(_ body: () throws -> T) rethrows -> T {
        let request = CommTargets.requestBeingHandled
        if let request { set(["msg_id": .string(request)]) }
        defer {
            if request != nil {
                fflush(nil)
                set(["msg_id": ""])
            }
        }
        return try capturing(replacing: false, body)
    }

    /// Runs `body` and shows exactly its displays: the area is replaced once, when `body`
    /// ends (no flicker). If `body` throws, the error is shown in the area and rethrown.
    public func replace<T>(_ body: () throws -> T) rethrows -> T {
        try capturing(replacing: true, body)
    }

    /// Shows values after what the area shows.
    public func append(_ values: Any...) {
        capturing(replacing: false) { for value in values { display(value) } }
    }

    /// Adds text as a `stream` output (`stdout` or `stderr`).
    public func appendText(_ text: String, stream: String = "stdout") {
        change { $0.append(["output_type": "stream", "name": .string(stream), "text": .string(text)]) }
    }

    /// Empties the area.
    public func clear() {
        change { $0.removeAll() }
    }

    private func capturing<T>(replacing: Bool, _ body: () throws -> T) rethrows -> T {
        let collected = Collected()
        let capture = DisplayCapture(display: { [weak self] bundle, displayID, isUpdate in
            let item = Self.displayItem(bundle, displayID: displayID)
            if replacing { collected.change { Self.place(item, in: &$0, replacingDisplay: isUpdate ? displayID : nil) } }
            else { self?.change { Self.place(item, in: &$0, replacingDisplay: isUpdate ? displayID : nil) } }
        }, clear: { [weak self] _ in
            if replacing { collected.change { $0.removeAll() } } else { self?.clear() }
        })
        do {
            let result = try capture.capturing(body)
            if replacing { change { $0 = collected.items } }
            return result
        } catch {
            if replacing {
                let text = "\(removingCellModuleNames(String(describing: type(of: error)))): \(removingCellModuleNames(String(describing: error)))\n"
                change { $0 = collected.items + [["output_type": "stream", "name": "stderr", "text": .string(text)]] }
            }
            throw error
        }
    }

    /// Changes the `outputs` list and sends the new list.
    private func change(_ edit: (inout [JSONValue]) -> Void) {
        outputLock.withLock {
            var list = outputs
            edit(&list)
            set(["outputs": .array(list)])
        }
    }

    /// A display as a `display_data` output object.
    private static func displayItem(_ bundle: MimeBundle, displayID: String?) -> JSONValue {
        let (data, metadata) = bundle.displayDataJSON
        var members: [String: JSONValue] = ["output_type": "display_data", "data": data, "metadata": metadata]
        if let displayID { members["transient"] = ["display_id": .string(displayID)] }
        return .object(members)
    }

    /// Appends, or replaces the output with the same display id for an update.
    private static func place(_ item: JSONValue, in list: inout [JSONValue], replacingDisplay displayID: String?) {
        if let displayID, let index = list.lastIndex(where: { $0["transient"]?["display_id"]?.stringValue == displayID }) {
            list[index] = item
        } else {
            list.append(item)
        }
    }

    /// Displays collected by ``replace(_:)`` before they are shown.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [JSONValue] = []
        var items: [JSONValue] { lock.withLock { list } }
        func change(_ edit: (inout [JSONValue]) -> Void) { lock.withLock { edit(&list) } }
    }
}
