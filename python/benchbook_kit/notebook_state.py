"""Runs a course notebook through a real kernel and reads back what its variables hold,
for the recovery test and the recovery benchmark."""
import json
import re
import time

from . import ROOT
from .kernel import run_cell, start_kernel, text_of

NOTEBOOKS = ROOT / "notebooks"


def start_notebook_kernel(extra_env=None):
    """A kernel whose working directory is notebooks/ (the notebooks' relative paths)."""
    return start_kernel(env=extra_env, cwd=NOTEBOOKS)


def code_cells(name):
    notebook = json.loads((NOTEBOOKS / name).read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]


def top_level_variables(cells):
    """Names bound by `let`/`var` at the start of a line outside magic cells, in order."""
    names = []
    for code in cells:
        if code.lstrip().startswith("%"):
            continue
        for match in re.finditer(r"^(?:let|var)\s+([A-Za-z_]\w*)", code, re.MULTILINE):
            if match.group(1) not in names:
                names.append(match.group(1))
    return names


def run_notebook(kc, name):
    """Runs every code cell; returns the seconds it took. Fails on the first error."""
    started = time.monotonic()
    for code in code_cells(name):
        reply, _ = run_cell(kc, code, timeout=900)
        assert reply["status"] == "ok", (code[:200], reply.get("ename"), reply.get("evalue"))
    return time.monotonic() - started


def describe(kc, names):
    """What each variable holds, as text (first 300 characters of its description)."""
    code = "\n".join(f'print("{name}=" + String(String(describing: {name}).prefix(300)).replacingOccurrences(of: "\\n", with: " "))'
                     for name in names)
    reply, outputs = run_cell(kc, "import Foundation\n" + code)
    assert reply["status"] == "ok", reply
    return text_of(outputs).splitlines()


def recovery_milliseconds(reply):
    """The restore time the kernel reports in its message ("in 12 ms")."""
    text = " ".join(reply["traceback"])
    match = re.search(r"restored the cell host from .* in ([0-9.]+) (ms|s):", text)
    assert match, text
    value = float(match.group(1))
    return value if match.group(2) == "ms" else value * 1000
