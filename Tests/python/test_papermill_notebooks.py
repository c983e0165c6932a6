"""papermill running Swift notebooks through the installed kernel: two parameter sets give
two executed notebooks whose records differ in exactly those settings; every kind of value
arrives in Swift as it left Python; `--help-notebook` lists the parameters cell."""
import json
import math
import subprocess
import sys
from pathlib import Path

import nbformat
import papermill
import pytest

from benchbook_kit import ROOT
from benchbook_kit.kernel import KERNEL_NAME

FIXTURES = ROOT / "Tests" / "Fixtures" / "papermill"
PAPERMILL = Path(sys.executable).parent / "papermill"


def run_papermill(source, output, cwd, *parameters):
    arguments = [str(PAPERMILL), str(source), str(output), "--cwd", str(cwd), "-k", KERNEL_NAME,
                 "--no-progress-bar", "--execution-timeout", "300"]
    for name, value in parameters:
        arguments += ["-p", name, str(value)]
    return subprocess.run(arguments, capture_output=True, text=True, timeout=600)


def test_two_parameter_sets_give_records_that_differ_in_exactly_those_settings(tmp_path):
    model = ROOT / "notebooks" / "models" / "fashion_cnn.ptl"
    image = ROOT / "notebooks" / "data" / "sample_ankle_boot.png"
    common = [("modelFile", model), ("imageFile", image)]
    sets = {
        "a": [("threads", 1), ("runs", 2), ("label", "one thread"), ("recordFile", tmp_path / "a.json")],
        "b": [("threads", 2), ("runs", 5), ("label", "two threads"), ("recordFile", tmp_path / "b.json")],
    }
    notebooks = {}
    for name, parameters in sets.items():
        output = tmp_path / f"{name}.ipynb"
        done = run_papermill(FIXTURES / "classify-with-parameters.ipynb", output, tmp_path, *common, *parameters)
        assert done.returncode == 0, done.stderr[-3000:]
        notebooks[name] = nbformat.read(output, as_version=4)

    records = {name: json.loads((tmp_path / f"{name}.json").read_text()) for name in sets}
    changed = {key for key in records["a"] if records["a"][key] != records["b"][key]}
    assert changed == {"threads", "runs", "label"}, (records["a"], records["b"])
    assert records["a"]["threads"] == 1 and records["b"]["threads"] == 2   # the thread count the model really has
    assert records["a"]["runs"] == 2 and records["b"]["runs"] == 5
    assert records["a"]["answer"] == records["b"]["answer"] == "Ankle boot"

    for name, nb in notebooks.items():
        tags = [cell.metadata.get("tags", []) for cell in nb.cells]
        injected = tags.index(["injected-parameters"])
        assert tags[injected - 1] == ["parameters"]
        source = nb.cells[injected].source
        assert source.startswith("// Parameters\n")
        assert f'let label = "{dict(sets[name])["label"]}"' in source
        assert nb.metadata.papermill.parameters["threads"] == dict(sets[name])["threads"]
        printed = "".join(o.get("text", "") for o in nb.cells[injected + 1].outputs)
        assert printed == f'{dict(sets[name])["label"]}: {dict(sets[name])["runs"]} runs with {dict(sets[name])["threads"]} thread(s), answer Ankle boot\n'


VALUES = {
    "text": 'quote " backslash \\ \\(no interpolation) tab\t newline\n naïve 😀',
    "count": -(2**63),
    "ratio": float("nan"),
    "flag": True,
    "nothing": None,
    "items": [[1, None], [2.5], []],
    "table": {"runs": 40, "name": "int8", "sizes": [224, 160], "extra": {}, "mixed": [1, "a", None, [2, "b"]]},
}


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b)


def test_every_kind_of_value_arrives_in_swift_unchanged(tmp_path):
    output = tmp_path / "literals.ipynb"
    papermill.execute_notebook(str(FIXTURES / "literals.ipynb"), str(output), parameters=VALUES,
                               kernel_name=KERNEL_NAME, cwd=str(tmp_path), progress_bar=False)
    nb = nbformat.read(output, as_version=4)
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    back = json.loads(printed)
    expected = dict(VALUES, ratio="nan")
    for name in VALUES:
        assert same(back[name], expected[name]), (name, back[name], expected[name])
    # The literal that carried the huge integer and the string, as the notebook shows it.
    injected = next(c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", []))
    assert "let count = -9223372036854775808\n" in injected.source
    assert "let nothing: Any? = nil\n" in injected.source


def test_a_value_swift_cannot_hold_stops_papermill_before_any_cell_runs(tmp_path):
    done = run_papermill(FIXTURES / "literals.ipynb", tmp_path / "out.ipynb", tmp_path, ("count", 2**64))
    assert done.returncode != 0
    assert "does not fit Swift's Int (64 bits)" in done.stderr
    assert not (tmp_path / "out.ipynb").exists()


def test_help_notebook_lists_the_parameters_cell():
    done = subprocess.run([str(PAPERMILL), "--help-notebook", str(FIXTURES / "classify-with-parameters.ipynb")],
                          capture_output=True, text=True, check=True, timeout=120)
    lines = done.stdout
    assert "threads: Int (default 1)" in lines and "threads for the model" in lines
    assert 'label: String (default "baseline")' in lines and "a name for this run" in lines


def test_a_deeply_nested_parameter_is_refused_by_name_before_any_cell_runs(tmp_path):
    """Issue 37, item 9: a 400-deep list (YAML) stopped papermill with a raw RecursionError."""
    deep = "[" * 400 + "]" * 400
    arguments = [str(PAPERMILL), str(FIXTURES / "literals.ipynb"), str(tmp_path / "out.ipynb"), "--cwd", str(tmp_path),
                 "-k", KERNEL_NAME, "--no-progress-bar", "-y", f"deep: {deep}"]
    done = subprocess.run(arguments, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "RecursionError" not in done.stderr, done.stderr[-2000:]
    assert "parameter 'deep'" in done.stderr and "nested 400 levels deep" in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "out.ipynb").exists()
