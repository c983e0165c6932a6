public import JSONCore

/// Which front-end model and view render a widget: the six `_model_*` and `_view_*`
/// attributes every widget state starts with (JupyterLab 4 with ipywidgets 8 names).
public struct ModelName: Sendable, Equatable {
    public var model: String
    public var modelModule: String
    public var modelModuleVersion: String
    public var view: String?
    public var viewModule: String
    public var viewModuleVersion: String

    /// A model and view of `@jupyter-widgets/controls` 2.0.0 (`IntSlider` names
    /// `IntSliderModel` and `IntSliderView`).
    public static func control(_ name: String) -> ModelName {
        ModelName(model: name + "Model", modelModule: "@jupyter-widgets/controls", modelModuleVersion: "2.0.0",
                  view: name + "View", viewModule: "@jupyter-widgets/controls", viewModuleVersion: "2.0.0")
    }

    /// A style model of `@jupyter-widgets/controls` with the base `StyleView`.
    public static func style(_ model: String) -> ModelName {
        ModelName(model: model, modelModule: "@jupyter-widgets/controls", modelModuleVersion: "2.0.0",
                  view: "StyleView", viewModule: "@jupyter-widgets/base", viewModuleVersion: "2.0.0")
    }

    /// `@jupyter-widgets/base` 2.0.0 `LayoutModel` and `LayoutView`.
    public static let layout = ModelName(model: "LayoutModel", modelModule: "@jupyter-widgets/base",
                                         modelModuleVersion: "2.0.0", view: "LayoutView",
                                         viewModule: "@jupyter-widgets/base", viewModuleVersion: "2.0.0")

    /// `@jupyter-widgets/output` 1.0.0 `OutputModel` and `OutputView`.
    public static let output = ModelName(model: "OutputModel", modelModule: "@jupyter-widgets/output",
                                         modelModuleVersion: "1.0.0", view: "OutputView",
                                         viewModule: "@jupyter-widgets/output", viewModuleVersion: "1.0.0")

    /// The attributes, plus `_view_count` (null: not tracked), as a widget's state has them.
    var state: [String: JSONValue] {
        ["_model_name": .string(model), "_model_module": .string(modelModule),
         "_model_module_version": .string(modelModuleVersion), "_view_name": view.map(JSONValue.string) ?? .null,
         "_view_module": .string(viewModule), "_view_module_version": .string(viewModuleVersion),
         "_view_count": .null]
    }
}
