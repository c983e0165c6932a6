public import JSONCore

/// A slider over whole numbers (`IntSlider`).
///
/// ```swift
/// let threshold = IntSlider(value: 48, range: 0...128, step: 4, label: "Threshold")
/// threshold.observe { print("now", $0) }
/// ```
public final class IntSlider: DescribedControl, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "value"

    /// Creates and opens a slider.
    /// - Parameters:
    ///   - value: the starting value (clamped to `range`).
    ///   - range: the smallest and largest values.
    ///   - step: the distance between values the slider stops at.
    ///   - label: the text in front of it.
    ///   - continuousUpdate: send values while the user drags (true) or only on release.
    public init(value: Int = 0, range: ClosedRange<Int> = 0...100, step: Int = 1, label: String = "",
                continuousUpdate: Bool = true) {
        super.init(kind: "IntSlider", name: .control("IntSlider"), description: label, state: [
            "value": .number(Double(min(max(value, range.lowerBound), range.upperBound))),
            "min": .number(Double(range.lowerBound)), "max": .number(Double(range.upperBound)),
            "step": .number(Double(step)), "behavior": "drag-tap", "continuous_update": .bool(continuousUpdate),
            "disabled": false, "orientation": "horizontal", "readout": true, "readout_format": "d",
        ], style: Style(model: "SliderStyleModel", attributes: ["handle_color": .null]))
    }

    /// The slider's value.
    public var value: Int {
        get { attribute("value")?.intValue ?? 0 }
        set { set(["value": .number(Double(newValue))]) }
    }

    /// The smallest and largest values.
    public var range: ClosedRange<Int> {
        get { (attribute("min")?.intValue ?? 0)...(attribute("max")?.intValue ?? 0) }
        set { set(["min": .number(Double(newValue.lowerBound)), "max": .number(Double(newValue.upperBound))]) }
    }
}

/// A slider over decimal numbers (`FloatSlider`).
public final class FloatSlider: DescribedControl, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "value"

    /// Creates and opens a slider.
    /// - Parameters:
    ///   - value: the starting value (clamped to `range`).
    ///   - range: the smallest and largest values.
    ///   - step: the distance between values the slider stops at.
    ///   - label: the text in front of it.
    ///   - readoutFormat: the d3-format of the number shown beside it (`.2f`).
    ///   - continuousUpdate: send values while the user drags (true) or only on release.
    public init(value: Double = 0, range: ClosedRange<Double> = 0...100, step: Double = 0.1, label: String = "",
                readoutFormat: String = ".2f", continuousUpdate: Bool = true) {
        super.init(kind: "FloatSlider", name: .control("FloatSlider"), description: label, state: [
            "value": .number(min(max(value, range.lowerBound), range.upperBound)),
            "min": .number(range.lowerBound), "max": .number(range.upperBound), "step": .number(step),
            "behavior": "drag-tap", "continuous_update": .bool(continuousUpdate), "disabled": false,
            "orientation": "horizontal", "readout": true, "readout_format": .string(readoutFormat),
        ], style: Style(model: "SliderStyleModel", attributes: ["handle_color": .null]))
    }

    /// The slider's value.
    public var value: Double {
        get { attribute("value")?.doubleValue ?? 0 }
        set { set(["value": .number(newValue)]) }
    }
}

/// A check box (`Checkbox`).
public final class Checkbox: DescribedControl, ValueWidget, @unchecked Sendable {
    public static let valueAttribute = "value"

    /// Creates and opens a check box.
    /// - Parameters:
    ///   - value: ticked or not.
    ///   - label: the text beside it.
    ///   - indent: line it up with the controls that have a description in front.
    public init(value: Bool = false, label: String = "", indent: Bool = true) {
        super.init(kind: "Checkbox", name: .control("Checkbox"), description: label, state: [
            "value": .bool(value), "disabled": false, "indent": .bool(indent),
        ], style: Style(model: "CheckboxStyleModel", attributes: ["background": .null]))
    }

    /// Ticked or not.
    public var value: Bool {
        get { attribute("value")?.boolValue ?? false }
        set { set(["value": .bool(newValue)]) }
    }
}
