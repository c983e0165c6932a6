import Foundation
public import BenchbookRuntime
public import JSONCore

/// An output area (`Output`): displays made while it captures appear inside it instead of
/// below the cell, including displays made by widget callbacks between cells.
///
/// ```swift
/// let out = Output()
/// display(out)
/// out.replace { display(chart) }   // replaces what it shows, in place
/// ```
///
/// Captured displays are kept in the model's `outputs` list, so they show in every view
/// and are saved with the notebook's widget state. `print` is not captured (see
/// ``DisplayCapture``).
public final class Output: Control, @unchecked Sendable {
    private let outputLock = NSLock()
    private var items: [JSONValue] = []

    /// Creates and opens an empty output area.
    public init() {
        super.init(kind: "Output", name: .output, state: ["msg_id": "", "outputs": []])
    }

    /// The outputs shown, as Jupyter output objects (`output_type`, `data`, ...).
    public var outputs: [JSONValue] { outputLock.withLock { items } }

    public override var description: String { "Output(\(outputs.count) outputs)" }

    /// Runs `body`, adding its displays to what the area shows (each display updates the
    /// area at once).
    public func capture<T>(_ body: () throws -> T) rethrows -> T {
        try capturing(replacing: false, body)
    }

    /// Runs `body` and shows exactly its displays: the area is replaced once, when `body`
    /// ends (no flicker). If `body` throws, the error is shown in the area and rethrown.
    public func replace<T>(_ body: () throws -> T) rethrows -> T {
        try capturing(replacing: true, body)
    }

    /// Shows values after what the area shows.
    public func append(_ values: Any...) {
        capture { for value in values { display(value) } }
    }

    /// Adds text as a `stream` output (`stdout` or `stderr`).
    public func appendText(_ text: String, stream: String = "stdout") {
        publish(outputLock.withLock { () -> [JSONValue] in
            items.append(["output_type": "stream", "name": .string(stream), "text": .string(text)])
            return items
        })
    }

    /// Empties the area.
    public func clear() {
        publish(outputLock.withLock { () -> [JSONValue] in
            items.removeAll()
            return items
        })
    }

    private func capturing<T>(replacing: Bool, _ body: () throws -> T) rethrows -> T {
        let collected = Collected()
        let capture = DisplayCapture(display: { [weak self] bundle, displayID, isUpdate in
            let (data, metadata) = bundle.displayDataJSON
            var item: JSONValue = ["output_type": "display_data", "data": data, "metadata": metadata]
            if let displayID, case .object(var members) = item {
                members["transient"] = ["display_id": .string(displayID)]
                item = .object(members)
            }
            if replacing { collected.append(item, replacingDisplay: isUpdate ? displayID : nil) }
            else { self?.add(item, replacingDisplay: isUpdate ? displayID : nil) }
        }, clear: { [weak self] _ in
            if replacing { collected.clear() } else { self?.clear() }
        })
        do {
            let result = try capture.capturing(body)
            if replacing { setItems(collected.items) }
            return result
        } catch {
            if replacing {
                let text = "\(removingCellModuleNames(String(describing: type(of: error)))): \(removingCellModuleNames(String(describing: error)))\n"
                setItems(collected.items + [["output_type": "stream", "name": "stderr", "text": .string(text)]])
            }
            throw error
        }
    }

    private func add(_ item: JSONValue, replacingDisplay displayID: String?) {
        publish(outputLock.withLock { () -> [JSONValue] in
            Collected.place(item, in: &items, replacingDisplay: displayID)
            return items
        })
    }

    private func setItems(_ new: [JSONValue]) {
        publish(outputLock.withLock { () -> [JSONValue] in
            items = new
            return items
        })
    }

    private func publish(_ list: [JSONValue]) { set(["outputs": .array(list)]) }

    /// Displays collected by ``replace(_:)`` before they are shown.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [JSONValue] = []
        var items: [JSONValue] { lock.withLock { list } }
        func append(_ item: JSONValue, replacingDisplay displayID: String?) {
            lock.withLock { Self.place(item, in: &list, replacingDisplay: displayID) }
        }
        func clear() { lock.withLock { list.removeAll() } }

        /// Appends, or replaces the item with the same display id for an update.
        static func place(_ item: JSONValue, in list: inout [JSONValue], replacingDisplay displayID: String?) {
            if let displayID, let index = list.lastIndex(where: { $0["transient"]?["display_id"]?.stringValue == displayID }) {
                list[index] = item
            } else {
                list.append(item)
            }
        }
    }
}
