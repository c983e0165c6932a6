import Foundation
public import BenchbookRuntime
public import JSONCore

/// The open widgets, and the `jupyter.widget.control` comm target through which a front end
/// that (re)connects asks for all their states at once (ipywidgets 8): it opens a comm to
/// the target, sends `request_states`, and gets one `update_states` with every model's
/// name and state, binary values as buffers at `[model id, "state", attribute]`.
///
/// Without the target (before the first widget exists) the front end falls back to
/// `comm_info_request` and one `request_state` per widget, which widgets also answer.
enum WidgetControl {
    /// The target's name.
    static let targetName = "jupyter.widget.control"

    private final class Weak: @unchecked Sendable {
        weak var widget: Widget?
        init(_ widget: Widget) { self.widget = widget }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var widgets: [String: Weak] = [:]

    private static let registration: Void = {
        CommTargets.register(targetName) { comm, _ in
            comm.onMessage { message in
                guard message.data["method"]?.stringValue == "request_states" else { return }
                let (data, buffers) = updateStates(of: openWidgets())
                comm.send(data, buffers: buffers)
            }
        }
    }()

    /// Records a new widget (and registers the control target the first time).
    static func add(_ widget: Widget) {
        _ = registration
        lock.withLock { widgets[widget.modelID] = Weak(widget) }
    }

    /// Forgets a closed widget.
    static func remove(_ widget: Widget) {
        _ = lock.withLock { widgets.removeValue(forKey: widget.modelID) }
    }

    /// The widgets whose comms are open.
    static func openWidgets() -> [Widget] {
        lock.withLock { widgets.values.compactMap(\.widget).filter(\.comm.isOpen) }
    }

    /// The `update_states` message for `widgets`.
    static func updateStates(of widgets: [Widget]) -> (data: JSONValue, buffers: [[UInt8]]) {
        var states: [String: JSONValue] = [:]
        var paths: [JSONValue] = []
        var buffers: [[UInt8]] = []
        for widget in widgets.sorted(by: { $0.modelID < $1.modelID }) {
            let (state, binaryKeys) = widget.stateSnapshot
            states[widget.modelID] = [
                "model_name": state["_model_name"] ?? .null, "model_module": state["_model_module"] ?? .null,
                "model_module_version": state["_model_module_version"] ?? .null, "state": .object(state),
            ]
            for key in binaryKeys {
                paths.append([.string(widget.modelID), "state", .string(key)])
                buffers.append(widget.bytes(key))
            }
        }
        return (["method": "update_states", "states": .object(states), "buffer_paths": .array(paths)], buffers)
    }
}
