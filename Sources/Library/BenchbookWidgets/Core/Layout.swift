public import JSONCore

/// A widget's CSS layout (`@jupyter-widgets/base` `LayoutModel`): size, margins, flex.
/// Every control has one (``Control/layout``).
public final class Layout: Widget, @unchecked Sendable {
    /// The CSS properties the model has, all unset (null) at first.
    static let properties = [
        "align_content", "align_items", "align_self", "border_bottom", "border_left", "border_right", "border_top",
        "bottom", "display", "flex", "flex_flow", "grid_area", "grid_auto_columns", "grid_auto_flow",
        "grid_auto_rows", "grid_column", "grid_gap", "grid_row", "grid_template_areas", "grid_template_columns",
        "grid_template_rows", "height", "justify_content", "justify_items", "left", "margin", "max_height",
        "max_width", "min_height", "min_width", "object_fit", "object_position", "order", "overflow", "padding",
        "right", "top", "visibility", "width",
    ]

    /// A layout with every property unset.
    public init() {
        super.init(kind: "Layout", name: .layout,
                   state: Dictionary(uniqueKeysWithValues: Self.properties.map { ($0, JSONValue.null) }))
    }

    /// A CSS property (`"width"`, `"margin"`, ... with `_` for `-`); nil unsets it.
    public subscript(css property: String) -> String? {
        get { attribute(property)?.stringValue }
        set { set([property: newValue.map(JSONValue.string) ?? .null]) }
    }

    /// The CSS width (`"300px"`, `"50%"`).
    public var width: String? {
        get { self[css: "width"] }
        set { self[css: "width"] = newValue }
    }

    /// The CSS height.
    public var height: String? {
        get { self[css: "height"] }
        set { self[css: "height"] = newValue }
    }
}

/// A control's style model (`SliderStyleModel`, `DescriptionStyleModel`, ...): the width
/// of its description, colours, fonts.
public final class Style: Widget, @unchecked Sendable {
    /// A style of the named model with its attributes at their defaults.
    /// - Parameter describesLabel: the model has a `description_width` (all but a button's).
    init(model: String, attributes: [String: JSONValue], describesLabel: Bool = true) {
        super.init(kind: "Style", name: .style(model),
                   state: (describesLabel ? ["description_width": ""] : [:]).merging(attributes) { $1 })
    }

    /// The width given to the description label (`"initial"` fits the text).
    public var descriptionWidth: String {
        get { attribute("description_width")?.stringValue ?? "" }
        set { set(["description_width": .string(newValue)]) }
    }

    /// The width of each button of a ``ToggleButtons`` (CSS, for example `"auto"`, which fits
    /// each button to its label; the front end's default is a fixed width that cuts long
    /// labels). Only a `ToggleButtonsStyleModel` has it.
    public var buttonWidth: String {
        get { attribute("button_width")?.stringValue ?? "" }
        set { set(["button_width": .string(newValue)]) }
    }
}

/// A widget drawn with a layout (every widget but layouts and styles).
public class Control: Widget, @unchecked Sendable {
    /// Its CSS layout.
    public let layout: Layout

    /// Opens the layout, then the widget referring to it.
    init(kind: String, name: ModelName, state: [String: JSONValue], binary: [String: [UInt8]] = [:], style: Style? = nil) {
        let layout = Layout()
        self.layout = layout
        var full: [String: JSONValue] = ["_dom_classes": [], "tabbable": .null, "tooltip": .null]
        full.merge(state) { $1 }
        full["layout"] = WidgetState.reference(to: layout.modelID)
        if let style { full["style"] = WidgetState.reference(to: style.modelID) }
        super.init(kind: kind, name: name, state: full, binary: binary)
        parts = [layout] + (style.map { [$0] } ?? [])
    }

    /// Adds a CSS class to the widget's element (`_dom_classes`), to style it or to find it
    /// in the page. Returns the widget, so it can be written where the widget is made.
    @discardableResult
    public func addClass(_ name: String) -> Self {
        let classes = (attribute("_dom_classes")?.arrayValue ?? []) + [.string(name)]
        set(["_dom_classes": .array(classes)])
        return self
    }
}

/// A control with a description label in front of it.
public class DescribedControl: Control, @unchecked Sendable {
    /// Its style (description width and the control's own style attributes).
    public let style: Style

    /// - Parameter hasHTMLFlag: the model has `description_allow_html` (all but a button).
    init(kind: String, name: ModelName, description: String, state: [String: JSONValue], style: Style,
         hasHTMLFlag: Bool = true) {
        self.style = style
        var full = state
        full["description"] = .string(description)
        if hasHTMLFlag { full["description_allow_html"] = false }
        super.init(kind: kind, name: name, state: full, style: style)
    }

    /// The label shown in front of the control.
    public var label: String {
        get { attribute("description")?.stringValue ?? "" }
        set { set(["description": .string(newValue)]) }
    }

    /// True when the user cannot change it.
    public var isDisabled: Bool {
        get { attribute("disabled")?.boolValue ?? false }
        set { set(["disabled": .bool(newValue)]) }
    }
}
