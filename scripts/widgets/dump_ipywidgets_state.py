"""Writes the state ipywidgets gives each widget kind Benchbook implements, as the
reference its Swift widgets are checked against (Tests/Fixtures/widgets/).

Run with the project's venv (ipywidgets 8):
    .venv/bin/python scripts/widgets/dump_ipywidgets_state.py Tests/Fixtures/widgets/ipywidgets-state.json

Per kind: the state keys and the values of the keys that name the front-end model and
view (model ids of layout/style references are replaced by "IPY_MODEL_").
"""
import json
import sys

import ipywidgets

KINDS = ["IntSlider", "FloatSlider", "Checkbox", "Dropdown", "ToggleButtons", "Button", "Label",
         "HTML", "Image", "Output", "HBox", "VBox", "Layout"]
NAMES = ["_model_name", "_model_module", "_model_module_version", "_view_name", "_view_module",
         "_view_module_version"]


def describe(widget):
    state = widget.get_state()
    return {"keys": sorted(state), "names": {key: state[key] for key in NAMES}}


def main(out):
    reference = {"ipywidgets": ipywidgets.__version__, "protocol": ipywidgets._version.__protocol_version__,
                 "kinds": {}, "styles": {}}
    for kind in KINDS:
        widget = getattr(ipywidgets, kind)()
        reference["kinds"][kind] = describe(widget)
        if hasattr(widget, "style"):
            reference["styles"][kind] = describe(widget.style)
    with open(out, "w") as handle:
        json.dump(reference, handle, indent=1, sort_keys=True)
        handle.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
