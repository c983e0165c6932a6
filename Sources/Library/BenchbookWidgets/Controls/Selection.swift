public import JSONCore

/// A choice of one option among labels: what ``Dropdown`` and ``ToggleButtons`` share.
/// The front end sends the chosen `index`; ``value`` is its label.
public class SelectionControl: DescribedControl, @unchecked Sendable {
    /// The labels of the options, in order.
    public let options: [String]

    init(kind: String, options: [String], selected: String?, label: String, state: [String: JSONValue], style: Style) {
        self.options = options
        let index = selected.flatMap { options.firstIndex(of: $0) } ?? (options.isEmpty ? nil : 0)
        var full = state
        full["_options_labels"] = .array(options.map(JSONValue.string))
        full["index"] = index.map { .number(Double($0)) } ?? .null
        full["disabled"] = false
        super.init(kind: kind, name: .control(kind), description: label, state: full, style: style)
    }

    /// The position of the chosen option, or nil when none is.
    public var index: Int? {
        get { attribute("index")?.intValue }
        set { set(["index": newValue.map { .number(Double($0)) } ?? .null]) }
    }

    /// The chosen option's label (the first option when none is chosen; empty without options).
    /// Setting a label that is not an option does nothing.
    public var value: String {
        get { index.flatMap { options.indices.contains($0) ? options[$0] : nil } ?? options.first ?? "" }
        set { if let position = options.firstIndex(of: newValue) { index = position } }
    }

    override var describedAttributes: [String] { ["index", "_options_labels", "description"] }
}

/// A drop-down list (`Dropdown`).
public final class Dropdown: SelectionControl, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "index"

    /// Creates and opens a drop-down list.
    /// - Parameters:
    ///   - options: the labels to choose from.
    ///   - value: the label chosen at first (the first when nil).
    ///   - label: the text in front of it.
    public init(options: [String], value: String? = nil, label: String = "") {
        super.init(kind: "Dropdown", options: options, selected: value, label: label, state: [:],
                   style: Style(model: "DescriptionStyleModel", attributes: [:]))
    }
}

/// A row of buttons of which one is pressed (`ToggleButtons`).
public final class ToggleButtons: SelectionControl, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "index"

    /// Creates and opens the buttons.
    /// - Parameters:
    ///   - options: the buttons' labels.
    ///   - value: the label pressed at first (the first when nil).
    ///   - label: the text in front of them.
    ///   - tooltips: one tooltip per button, or none.
    public init(options: [String], value: String? = nil, label: String = "", tooltips: [String] = []) {
        super.init(kind: "ToggleButtons", options: options, selected: value, label: label, state: [
            "button_style": "", "icons": [], "tooltips": .array(tooltips.map(JSONValue.string)),
        ], style: Style(model: "ToggleButtonsStyleModel", attributes: ["button_width": "", "font_weight": ""]))
    }
}
