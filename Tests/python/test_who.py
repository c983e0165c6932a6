"""`%who` and `%whos` through a real jupyter_client (issue 25): the newest definition of every
name earlier cells made, with types and values read in the cell host (so they are the
values now, not what the source said), functions and types by kind, a type filter,
variables lost with a host, and a value whose description traps.
"""
import os

import pytest
from jupyter_client.manager import start_new_kernel

from benchbook_kit.kernel import KERNEL_NAME, results, run_cell, text_of

# Connection files and other Jupyter state under each test's folder, not in the home.
pytestmark = pytest.mark.usefixtures("jupyter_directories")


def ok(kc, code):
    reply, outputs = run_cell(kc, code)
    assert reply["status"] == "ok", (code, reply)
    return outputs


def listing(kc, magic):
    outputs = ok(kc, magic)
    assert not results(outputs) and not text_of(outputs, "stderr"), outputs
    return text_of(outputs).splitlines()


def test_an_empty_notebook_says_so(kernel):
    km, kc = kernel
    assert listing(kc, "%who") == [
        "Nothing is defined yet: %who lists the variables, functions and types that earlier cells define."]


def test_names_types_and_values_of_the_newest_definitions(kernel):
    km, kc = kernel
    ok(kc, 'var counter = 0\nlet threshold = 48\nlet label = "boot"\nlet scores: [Float] = [0.25, 0.75]')   # In[1]
    ok(kc, "struct Point { var x = 1, y = 2 }\nfunc double(_ v: Int) -> Int { 2 * v }")                   # In[2]
    ok(kc, "let origin = Point()\ncounter += 5")                                                         # In[3]
    ok(kc, 'let threshold = "high"')                                                                     # In[4]
    ok(kc, "let image = try Image(width: 2, height: 1, format: .gray, pixels: [0, 255])")                 # In[5]
    assert listing(kc, "%who") == [
        "struct Point",
        "counter: Int = 5",                      # the value now, read in the host
        "func double",
        "image: Image = Image(2x1, gray)",
        'label: String = "boot"',
        "origin: Point = Point(x: 1, y: 2)",
        "scores: [Float] = [0.25, 0.75]",
        'threshold: String = "high"',            # only the newest definition
    ]
    table = listing(kc, "%whos")
    assert table[0].split() == ["Name", "Type", "Cell", "Data/Info"]
    assert set(table[1]) == {"-", " "}
    rows = {line.split()[0]: line.split(None, 3) for line in table[2:]}
    assert rows["threshold"] == ["threshold", "String", "In[4]", '"high"']
    assert rows["scores"] == ["scores", "[Float]", "In[1]", "2 elements: [0.25, 0.75]"]
    assert rows["double"] == ["double", "func", "In[2]"]
    assert rows["counter"][1:3] == ["Int", "In[1]"]
    assert len(rows) == 8
    # The listing defined nothing and left every value in place.
    outputs = ok(kc, "(counter, threshold, origin.y)")
    assert results(outputs) == ['(5, "high", 2)']


def test_a_filter_keeps_types_and_kinds(kernel):
    km, kc = kernel
    ok(kc, "let n = 3\nlet m = 4\nlet f: Float = 1.5\nlet values = [1, 2]\nlet anything: Any = 2.5\nfunc g() {}\nenum Mode { case a }")
    assert listing(kc, "%who Int") == ["m: Int = 4", "n: Int = 3"]
    assert listing(kc, "%who func enum") == ["enum Mode", "func g"]
    assert listing(kc, "%who [Int] Float") == ["f: Float = 1.5", "values: [Int] = [1, 2]"]
    assert listing(kc, "%who Double") == ["anything: Any = 2.5"], "a value of type Any holding a Double"
    assert any("Any (holding Double)" in line for line in listing(kc, "%whos anything Double"))
    assert listing(kc, "%who String") == ["No names of type String."]


def test_large_and_multiline_values_stay_on_one_line(kernel):
    km, kc = kernel
    ok(kc, 'let many = Array(0..<10_000)\nlet text = "line one\\nline two"\nlet table = ["a": [1, 2], "b": []]')
    lines = listing(kc, "%who")
    assert "many: [Int] = [0, 1, 2, 3, 4, 5, 6, 7, …]" in lines
    assert 'text: String = "line one\\nline two"' in lines
    assert any(line.startswith("table: [String: [Int]] = [") for line in lines), lines
    assert any("10000 elements: [0, 1, 2" in line for line in listing(kc, "%whos"))
    assert all(len(line) < 140 for line in listing(kc, "%whos"))


def test_file_private_names_are_listed_like_any_other(kernel):
    # A notebook is one file: private and fileprivate at a cell's top level are visible to the
    # whole file, so %who (a cell of its own) reads them as it reads any other variable.
    km, kc = kernel
    ok(kc, "fileprivate struct Secret { var v = 1 }\nfileprivate let secret = Secret()\nprivate let hidden = 5\nlet shown = 2")
    assert listing(kc, "%who") == [
        "struct Secret",
        "hidden: Int = 5",
        "secret: Secret = Secret(v: 1)",
        "shown: Int = 2",
    ]


def test_a_value_with_a_huge_default_description_is_cut_short(kernel):
    km, kc = kernel
    # FashionMNIST keeps 7.8 million pixels and has no description of its own: Swift's
    # default description of it is 30 MB of text.
    ok(kc, "let dataset = try FashionMNIST(split: .test)")
    [line] = listing(kc, "%who")
    assert line.startswith("dataset: FashionMNIST = FashionMNIST(") and "pixels: [0, 0, 0" in line, line
    assert line.endswith("…") and len(line) < 120, line


def test_who_is_a_cell_of_its_own(kernel):
    km, kc = kernel
    reply, _ = run_cell(kc, "%who\nlet x = 1")
    assert reply["status"] == "error" and reply["ename"] == "MagicError", reply
    assert "must be the cell's only code" in reply["evalue"]
    reply, _ = run_cell(kc, "%frobnicate")
    assert "%who" in reply["evalue"] and "%whos" in reply["evalue"], reply


def test_a_description_that_traps_is_reported_and_costs_nothing(kernel):
    km, kc = kernel
    ok(kc, 'struct Fragile: CustomStringConvertible {\n    var description: String { fatalError("no description") }\n}\n'
           'let fragile = Fragile()\nlet kept = 7')
    reply, _ = run_cell(kc, "%who")
    assert reply["status"] == "error" and reply["ename"] == "Crash", reply
    assert "In[1], line 2: Fatal error: no description" in reply["evalue"], reply
    assert "every variable of earlier cells is there" in " ".join(reply["traceback"])
    # A filter describes only what it keeps.
    assert listing(kc, "%who Int") == ["kept: Int = 7"]


@pytest.fixture
def kernel_without_snapshots():
    km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=60,
                              env={**os.environ, "BENCHBOOK_SNAPSHOTS": "0"})
    try:
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_variables_lost_with_the_host_are_listed_as_lost(kernel_without_snapshots):
    km, kc = kernel_without_snapshots
    ok(kc, "var total = 10\nfunc bump() { total += 1 }")   # In[1]
    reply, _ = run_cell(kc, "[0][1]")                       # a trap; no snapshot to restore
    assert reply["ename"] == "Crash", reply
    ok(kc, "let fresh = 2")
    assert listing(kc, "%who") == [
        "func bump",
        "fresh: Int = 2",
        "total: lost when the cell host restarted: re-run In[1]",
    ]
