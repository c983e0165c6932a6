public import JSONCore

/// A push button (`Button`); ``onClick(_:)`` runs code when it is pressed.
public final class Button: DescribedControl, @unchecked Sendable {
    /// Creates and opens a button.
    /// - Parameters:
    ///   - label: the text on the button.
    ///   - style: `primary`, `success`, `info`, `warning`, `danger`, or empty.
    ///   - icon: a Font Awesome icon name, or empty.
    public init(label: String, style: String = "", icon: String = "") {
        super.init(kind: "Button", name: .control("Button"), description: label, state: [
            "button_style": .string(style), "icon": .string(icon), "disabled": false,
        ], style: Style(model: "ButtonStyleModel", attributes: [
            "button_color": .null, "font_family": .null, "font_size": .null, "font_style": .null,
            "font_variant": .null, "font_weight": .null, "text_color": .null, "text_decoration": .null,
        ], describesLabel: false), hasHTMLFlag: false)
    }

    override var describedAttributes: [String] { ["description"] }

    /// Calls `handler` each time the user presses the button (a `custom` message
    /// `{"event": "click"}`). An error it throws is reported.
    public func onClick(_ handler: @escaping (Button) throws -> Void) {
        onCustomMessage { [unowned self] content, _ in
            if content["event"]?.stringValue == "click" { try handler(self) }
        }
    }

    /// Presses the button from code (as a click in the front end would).
    public func click() {
        dispatchCustom(["event": "click"], buffers: [])
    }
}

/// A line of text (`Label`), escaped: what it says is shown as it is.
public final class Label: DescribedControl, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "value"

    /// Creates and opens a label.
    public init(_ text: String = "", label: String = "") {
        super.init(kind: "Label", name: .control("Label"), description: label,
                   state: ["value": .string(text), "placeholder": "\u{200B}"],
                   style: Style(model: "LabelStyleModel", attributes: [
                    "background": .null, "font_family": .null, "font_size": .null, "font_style": .null,
                    "font_variant": .null, "font_weight": .null, "text_color": .null, "text_decoration": .null,
                   ]))
    }

    /// The text shown.
    public var value: String {
        get { attribute("value")?.stringValue ?? "" }
        set { set(["value": .string(newValue)]) }
    }
}

/// A piece of HTML (`HTML`), rendered by the front end.
public final class HTML: DescribedControl, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "value"

    /// Creates and opens an HTML widget.
    public init(_ html: String = "", label: String = "") {
        super.init(kind: "HTML", name: .control("HTML"), description: label,
                   state: ["value": .string(html), "placeholder": "\u{200B}"],
                   style: Style(model: "HTMLStyleModel", attributes: [
                    "background": .null, "font_size": .null, "text_color": .null,
                   ]))
    }

    /// The HTML shown.
    public var value: String {
        get { attribute("value")?.stringValue ?? "" }
        set { set(["value": .string(newValue)]) }
    }
}
