"""The Swift papermill translator on its own: the Swift text for every kind of value,
clear errors for values Swift cannot hold, `--help-notebook` inspection, and the
registration that happens whenever papermill is imported."""
import subprocess
import sys

import nbformat
import pytest
from benchbook_papermill.translator import SwiftTranslationError, SwiftTranslator


def codify(**parameters):
    return SwiftTranslator.codify(parameters).splitlines()[1:]


@pytest.mark.parametrize("value, swift", [
    ("models/fashion_cnn.ptl", '"models/fashion_cnn.ptl"'),
    ('say "hi" \\ \\(not interpolated)', '"say \\"hi\\" \\\\ \\\\(not interpolated)"'),
    ("tab\tline\nreturn\r\0bell\x07del\x7f", '"tab\\tline\\nreturn\\r\\0bell\\u{7}del\\u{7F}"'),
    ("naïve 😀 ∑", '"naïve 😀 ∑"'),
    (2, "2"), (-7, "-7"), (2**63 - 1, "9223372036854775807"), (-(2**63), "-9223372036854775808"),
    (0.1, "0.1"), (2.0, "2.0"), (1e-05, "1e-05"), (1e16, "1e+16"), (-0.0, "-0.0"),
    (float("nan"), "Double.nan"), (float("inf"), "Double.infinity"), (float("-inf"), "-Double.infinity"),
    (True, "true"), (False, "false"),
    ([1, 2, 3], "[1, 2, 3]"), ([1, 2.5], "[1, 2.5]"), (["a", None], '["a", nil]'),
    ([[1], []], "[[1], []]"), ({"runs": 40, "warmup": 3}, '["runs": 40, "warmup": 3]'),
    ({1: "one"}, '[1: "one"]'), ((1, 2), "[1, 2]"),
    ({"sizes": [224, 160], "tags": []}, '["sizes": [224, 160], "tags": []]'), ([[1, None], [2.5]], "[[1, nil], [2.5]]"),
])
def test_values_that_swift_infers_need_no_type(value, swift):
    assert codify(x=value) == [f"let x = {swift}"]


@pytest.mark.parametrize("value, swift", [
    (None, "let x: Any? = nil"),
    ([], "let x: [Any] = []"),
    ({}, "let x: [String: Any] = [:]"),
    ([1, "a", True], 'let x: [Any] = [1, "a", true]'),
    ([1, None, "a"], 'let x: [Any?] = [1, nil, "a"]'),
    ({"n": 1, "name": "int8"}, 'let x: [String: Any] = ["n": 1, "name": "int8"]'),
    ([1, [2, "b"], {}], 'let x: [Any] = [1, [2, "b"] as [Any], [:] as [String: Any]]'),
    ([[], []], "let x: [[Any]] = [[], []]"),
    ({"sizes": [224, 160], "tags": ["a"]}, 'let x: [String: Any] = ["sizes": [224, 160], "tags": ["a"]]'),
])
def test_values_swift_cannot_infer_get_a_type(value, swift):
    assert codify(x=value) == [swift]


def test_the_cell_starts_with_a_swift_comment_and_keeps_the_order():
    text = SwiftTranslator.codify({"threads": 2, "modelFile": "m.ptl"}, comment="Parameters")
    assert text == '// Parameters\nlet threads = 2\nlet modelFile = "m.ptl"\n'


def test_keywords_are_escaped_and_bad_names_refused():
    assert codify(**{"class": 1, "in": 2}) == ["let `class` = 1", "let `in` = 2"]
    with pytest.raises(SwiftTranslationError, match="'model-file' is not a Swift identifier"):
        codify(**{"model-file": "x"})
    with pytest.raises(SwiftTranslationError, match="not a Swift identifier"):
        codify(**{"2x": 1})


@pytest.mark.parametrize("value, message", [
    (2**63, "does not fit Swift's Int"),
    ({"a": 1, 2: 3}, "keys of mixed types"),
    ({None: 1}, "keys must be strings or numbers"),
    (object(), "has no Swift literal"),
    ("\ud800", "lone UTF-16 surrogate"),
])
def test_values_without_a_swift_form_are_refused_with_the_reason(value, message):
    with pytest.raises(SwiftTranslationError, match=message):
        codify(x=value)


def test_inspect_lists_the_parameters_cell():
    cell = nbformat.v4.new_code_cell(
        'let threads = 1            // threads for the model\n'
        'let modelFile = "a // b.ptl" // model to load\n'
        'var scale: Float = 0.5\n'
        'let sizes = [\n    224,  // the course size\n    160,\n]\n'
        'let ratio = 1e-3\nlet off = false\nlet maybe: String? = nil\n'
        'print("not a parameter")\n')
    found = [(p.name, p.inferred_type_name, p.default, p.help) for p in SwiftTranslator.inspect(cell)]
    assert found == [
        ("threads", "Int", "1", "threads for the model"),
        ("modelFile", "String", '"a // b.ptl"', "model to load"),
        ("scale", "Float", "0.5", ""),
        ("sizes", "None", "[ 224, 160, ]", ""),
        ("ratio", "Double", "1e-3", ""),
        ("off", "Bool", "false", ""),
        ("maybe", "String?", "nil", ""),
    ]


def test_importing_papermill_registers_the_translator():
    """In a fresh interpreter: papermill alone, no import of this package."""
    code = ("import papermill\n"
            "from papermill.translators import papermill_translators as t\n"
            "print(t.find_translator('swift', 'swift').__name__, t.find_translator('some-swift-kernel', 'swift').__name__)\n"
            "from papermill.engines import papermill_engines\n"
            "print(papermill_engines.get_engine('benchbook').__mro__[1].__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["SwiftTranslator", "SwiftTranslator", "NBClientEngine"]


@pytest.mark.parametrize("depth", [40, 400, 5000])
def test_a_deeply_nested_value_is_refused_naming_the_parameter(depth):
    """Issue 37, item 9: a list nested hundreds of levels deep used to stop papermill with
    Python's own RecursionError; it is refused with the parameter and its depth."""
    value = []
    for _ in range(depth - 1):
        value = [value]
    with pytest.raises(SwiftTranslationError, match=rf"parameter 'deep' .*nested {depth} levels deep"):
        codify(deep=value)


def test_a_value_nested_to_the_limit_is_written():
    value = [1]
    for _ in range(15):
        value = [value]
    assert codify(ok=value) == ["let ok = " + "[" * 16 + "1" + "]" * 16]
