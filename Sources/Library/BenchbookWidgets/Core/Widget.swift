import Foundation
public import BenchbookRuntime
public import JSONCore

/// A Jupyter widget: a model whose state lives both here and in the front end, kept in
/// step over a comm to `jupyter.widget` (widget protocol 2.1, as ipywidgets 8 speaks it).
///
/// Setting a property sends an `update`; the front end's updates set the properties here,
/// are echoed back (`echo_update`, so every open view of the notebook agrees) and call the
/// observers. `request_state` is answered with the whole state. A widget shows itself as
/// `application/vnd.jupyter.widget-view+json` with a `text/plain` stand-in, so a headless
/// run (nbclient, nbconvert) records a readable line.
///
/// Widgets stay alive while their comm is open (the comm holds them); ``close()`` ends both.
/// Outside a kernel they work as plain values: nothing is sent.
///
/// Thread rules: properties may be read and set from any thread; observers run on the
/// thread that made the change (a callback thread of the host for the front end's changes).
public class Widget: NotebookDisplayable, CustomStringConvertible, @unchecked Sendable {
    /// The comm that carries the widget's messages; its id is the model id.
    public let comm: Comm
    /// The widget's kind in descriptions (`IntSlider`).
    let kind: String
    private let lock = NSLock()
    private var state: [String: JSONValue]
    private var binary: [String: [UInt8]]
    private var observers: [String: [(id: Int, handler: () throws -> Void)]] = [:]
    private var customHandlers: [(JSONValue, [[UInt8]]) throws -> Void] = []
    private var nextObserverID = 0
    /// Widgets this one refers to (layout, style, children) and closes with itself.
    var parts: [Widget] = []

    /// Opens the widget's comm with its whole state.
    /// - Parameters:
    ///   - kind: the name in descriptions.
    ///   - name: the front-end model and view.
    ///   - state: the other attributes.
    ///   - binary: attributes whose values are bytes (sent as buffers).
    init(kind: String, name: ModelName, state: [String: JSONValue], binary: [String: [UInt8]] = [:]) {
        self.kind = kind
        var full = name.state
        full.merge(state) { $1 }
        self.state = full
        self.binary = binary
        let opening = WidgetState.message(method: nil, state: full, binary: binary)
        comm = Comm(targetName: "jupyter.widget", data: opening.data,
                    metadata: ["version": .string(WidgetState.protocolVersion)], buffers: opening.buffers)
        comm.onMessage { message in try self.receive(message) }
        WidgetControl.add(self)
    }

    /// The model id (the comm id) the front end knows the widget by.
    public var modelID: String { comm.id }

    /// The widget's whole state as the front end has it: JSON attributes, and the names of
    /// binary ones.
    public var stateSnapshot: (state: [String: JSONValue], binaryKeys: [String]) {
        lock.withLock { (state, binary.keys.sorted()) }
    }

    /// The widget as a display: its view in a front end with widgets, its description elsewhere.
    public var mimeBundle: MimeBundle {
        // One line of text stands for the widget where it cannot be drawn (as ipywidgets: 110 characters).
        let text = description.count > 110 ? String(description.prefix(110)) + "…" : description
        return MimeBundle(plainText: text).adding("application/vnd.jupyter.widget-view+json", json: [
            "model_id": .string(modelID), "version_major": 2, "version_minor": 0,
        ])
    }

    /// `IntSlider(value: 48, description: "Threshold")`: the kind and the attributes that
    /// say most about this widget.
    public var description: String {
        let shown = describedAttributes.compactMap { key -> String? in
            guard let value = attribute(key) else { return nil }
            return "\(key): \(value.serializedText())"
        }
        return "\(kind)(\(shown.joined(separator: ", ")))"
    }

    /// The attributes a description shows.
    var describedAttributes: [String] { ["value", "description"] }

    /// Closes the widget (and its layout, style and other parts) in the front end.
    public func close() {
        WidgetControl.remove(self)
        comm.close()
        for part in parts { part.close() }
    }

    // MARK: State

    /// The value of one attribute.
    func attribute(_ key: String) -> JSONValue? { lock.withLock { state[key] } }

    /// The bytes of one binary attribute.
    func bytes(_ key: String) -> [UInt8] { lock.withLock { binary[key] ?? [] } }

    /// Sets attributes; the changed ones are sent as one `update`, then their observers run.
    func set(_ changes: [String: JSONValue]) {
        let changed = lock.withLock { () -> [String: JSONValue] in
            let changed = changes.filter { state[$0.key] != $0.value }
            state.merge(changed) { $1 }
            return changed
        }
        guard !changed.isEmpty else { return }
        send(WidgetState.message(method: "update", state: changed))
        notify(Array(changed.keys))
    }

    /// Sets one binary attribute (sent as a buffer), then its observers run.
    func setBytes(_ key: String, _ bytes: [UInt8]) {
        let isChange = lock.withLock { () -> Bool in
            guard binary[key] != bytes else { return false }
            binary[key] = bytes
            return true
        }
        guard isChange else { return }
        send(WidgetState.message(method: "update", state: [:], binary: [key: bytes]))
        notify([key])
    }

    /// Sends a `custom` message to the front-end model.
    public func sendCustom(_ content: JSONValue, buffers: [[UInt8]] = []) {
        comm.send(["method": "custom", "content": content], buffers: buffers)
    }

    private func send(_ message: (data: JSONValue, buffers: [[UInt8]])) {
        comm.send(message.data, buffers: message.buffers)
    }

    // MARK: Observers

    /// Calls `handler` after attribute `key` changes, from either side. Returns what stops it.
    @discardableResult
    func observe(_ key: String, _ handler: @escaping () throws -> Void) -> Observation {
        let id = lock.withLock { () -> Int in
            nextObserverID += 1
            observers[key, default: []].append((nextObserverID, handler))
            return nextObserverID
        }
        return Observation { [weak self] in
            self?.lock.withLock { self?.observers[key]?.removeAll { $0.id == id } }
        }
    }

    /// Calls `handler` with the content and buffers of each `custom` message from the front end.
    func onCustomMessage(_ handler: @escaping (JSONValue, [[UInt8]]) throws -> Void) {
        lock.withLock { customHandlers.append(handler) }
    }

    private func notify(_ keys: [String]) {
        for key in keys.sorted() {
            let handlers = lock.withLock { observers[key] ?? [] }
            for (_, handler) in handlers {
                do { try handler() } catch {
                    CommTargets.report(error, while: "running an observer of \(labelForMessages)")
                }
            }
        }
    }

    /// `IntSlider "Threshold"`, for messages about this widget.
    var labelForMessages: String {
        if let text = attribute("description")?.stringValue, !text.isEmpty { return "\(kind) \"\(text)\"" }
        return kind
    }

    // MARK: Messages from the front end

    private func receive(_ message: CommMessage) throws {
        switch message.data["method"]?.stringValue {
        case "update":
            let (changes, binaryChanges) = WidgetState.attributes(of: message.data, buffers: message.buffers)
            // Echo first (ipywidgets 8 does), so other views of this model follow.
            var echo = message.data.objectValue ?? [:]
            echo["method"] = "echo_update"
            comm.send(.object(echo), buffers: message.buffers)
            let changed = lock.withLock { () -> [String] in
                var changed: [String] = []
                for (key, value) in changes where state[key] != value {
                    state[key] = value
                    changed.append(key)
                }
                for (key, value) in binaryChanges where binary[key] != value {
                    binary[key] = value
                    changed.append(key)
                }
                return changed
            }
            notify(changed)
        case "request_state":
            let (full, bytes) = lock.withLock { (state, binary) }
            send(WidgetState.message(method: "update", state: full, binary: bytes))
        case "custom":
            dispatchCustom(message.data["content"] ?? .null, buffers: message.buffers)
        default:
            break
        }
    }

    /// Calls the handlers of `custom` messages with one message's content.
    func dispatchCustom(_ content: JSONValue, buffers: [[UInt8]]) {
        let handlers = lock.withLock { customHandlers }
        for handler in handlers {
            do { try handler(content, buffers) } catch {
                CommTargets.report(error, while: "handling a message from \(labelForMessages)")
            }
        }
    }
}

/// Stops an observation when cancelled.
public final class Observation: Sendable {
    private let stop: @Sendable () -> Void

    init(_ stop: @escaping @Sendable () -> Void) { self.stop = stop }

    /// The observer is not called again.
    public func cancel() { stop() }
}
