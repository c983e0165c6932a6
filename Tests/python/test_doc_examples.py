"""Every ```swift example in a `///` doc comment of the notebook library runs as written.

The examples are what a student copies into a cell, so each one runs as one cell in a real
kernel started in notebooks/ (where the relative paths in the examples, models/... and
data/..., resolve as in JupyterLab), in file order, and must end without an error output.
Needs the installed kernelspec, the course models and the notebook data (make models
notebook-data).
"""
import re

import pytest
from jupyter_client.manager import start_new_kernel

from benchbook_kit import ROOT
from benchbook_kit.kernel import KERNEL_NAME, errors, run_cell

LIBRARY = ["BenchbookRuntime", "BenchbookTensor", "BenchbookImage", "BenchbookBenchmark", "BenchbookModels",
           "BenchbookCharts", "BenchbookWidgets"]
BLOCK = re.compile(r"^\s*/// ```swift\n(.*?)^\s*/// ```$", re.S | re.M)


def examples():
    """(id, code) of every doc-comment example, with the `///` prefix removed."""
    found = []
    for module in LIBRARY:
        for path in sorted((ROOT / "Sources" / "Library" / module).rglob("*.swift")):
            text = path.read_text()
            for match in BLOCK.finditer(text):
                lines = [re.sub(r"^\s*/// ?", "", line) for line in match.group(1).splitlines()]
                line_number = text[:match.start()].count("\n") + 1
                found.append((f"{path.relative_to(ROOT / 'Sources' / 'Library')}:{line_number}", "\n".join(lines)))
    return found


EXAMPLES = examples()


def test_the_library_has_examples():
    assert len(EXAMPLES) >= 10, "the doc-comment parser found too few examples: did the comment style change?"


@pytest.fixture(scope="module")
def notebook_kernel():
    km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=60, cwd=str(ROOT / "notebooks"))
    try:
        yield kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.mark.parametrize("code", [code for _, code in EXAMPLES], ids=[name for name, _ in EXAMPLES])
def test_doc_example_runs_as_written(notebook_kernel, code):
    reply, outputs = run_cell(notebook_kernel, code, timeout=300)
    failures = errors(outputs)
    assert reply["status"] == "ok" and not failures, "\n".join(
        "\n".join(f.get("traceback") or [f.get("ename", ""), f.get("evalue", "")]) for f in failures) or reply
