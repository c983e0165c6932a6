public import JSONCore

/// Widgets side by side (`HBox`).
public final class HBox: Control, @unchecked Sendable {
    /// The widgets in it, in order.
    public let children: [Widget]

    /// Creates and opens a row of widgets.
    public init(_ children: [Widget]) {
        self.children = children
        super.init(kind: "HBox", name: .control("HBox"), state: [
            "box_style": "", "children": .array(children.map { WidgetState.reference(to: $0.modelID) }),
        ])
    }

    override var describedAttributes: [String] { [] }
    public override var description: String { "HBox(\(children.map(\.description).joined(separator: ", ")))" }
}

/// Widgets one above the other (`VBox`).
public final class VBox: Control, @unchecked Sendable {
    /// The widgets in it, in order.
    public let children: [Widget]

    /// Creates and opens a column of widgets.
    public init(_ children: [Widget]) {
        self.children = children
        super.init(kind: "VBox", name: .control("VBox"), state: [
            "box_style": "", "children": .array(children.map { WidgetState.reference(to: $0.modelID) }),
        ])
    }

    override var describedAttributes: [String] { [] }
    public override var description: String { "VBox(\(children.map(\.description).joined(separator: "\n     ")))" }
}
