"""Whole Swift programs as notebooks, output for output against swiftc (issue 23).

Each file in Tests/Corpus is one main.swift written in the everyday forms of the Swift
book, split into cells at its `//% cell` lines. The test builds the file with swiftc (module
`main`, as `swiftc main.swift` names it) and runs it, then runs it in a fresh kernel twice:
cut into its cells, run in order, and whole as one cell; each time it compares what was
printed (the notebook's standard output, all cells together, against the program's). A
cell's shown last expression is not part of it: main.swift shows nothing for one.

A program whose first line says `// EXPECT-MISMATCH: <name>` shows something Swift allows
in one file and a notebook cannot (each cell is its own module and file): the test checks
that the notebook stops with a compile error on it and that docs/cell-model.md explains it
under the program's file name (whole, as one cell, it must print the same as swiftc). With
BENCHBOOK_RECORD_RESULTS=1 the counts go to
results/swift-corpus.{json,md}.
"""
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

from benchbook_kit import ROOT
from benchbook_kit.kernel import KERNEL_NAME, run_cell
from benchbook_kit.skips import skip_or_fail

CORPUS = ROOT / "Tests" / "Corpus"
PROGRAMS = sorted(CORPUS.glob("*.swift"))
EXPLAINED = ROOT / "docs" / "cell-model.md"   # where each EXPECT-MISMATCH program is explained
OUTCOMES = {}
FORMS = ["cells", "one cell"]
BUILT = {}


def cells_of(source):
    return [cell.strip("\n") for cell in source.split("//% cell\n")[1:]]


def swiftc():
    found = shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc"
    if not Path(found).exists():
        skip_or_fail("swiftc is not on PATH or in /opt/swift/usr/bin")
    return found


def program_output(path, work):
    if path in BUILT:
        return BUILT[path]
    binary = work / path.stem
    built = subprocess.run([swiftc(), "-Onone", "-module-name", "main", str(path), "-o", str(binary)], capture_output=True, text=True)
    assert built.returncode == 0, f"{path.name} does not build as one main.swift:\n{built.stderr[-3000:]}"
    ran = subprocess.run([str(binary)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, f"{path.name} fails as a program:\n{ran.stderr[-3000:]}"
    BUILT[path] = ran.stdout
    return ran.stdout


def notebook_run(cells):
    """Runs the cells in a fresh kernel; returns (stdout, the first error reply and its cell)."""
    km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=60)
    try:
        stdout = []
        for index, code in enumerate(cells):
            reply, outputs = run_cell(kc, code, timeout=300)
            stdout += [m["content"]["text"] for m in outputs
                       if m["msg_type"] == "stream" and m["content"]["name"] == "stdout"]
            if reply["status"] != "ok":
                return "".join(stdout), (index + 1, reply)
        return "".join(stdout), None
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_the_same_as_swiftc(path, form, tmp_path):
    source = path.read_text()
    cells = cells_of(source)
    assert len(cells) >= 2, f"{path.name}: split it into cells with //% cell lines"
    if form == "one cell":
        cells = ["\n".join(cells)]
    expected_mismatch = re.match(r"// EXPECT-MISMATCH: (\S+)", source) and form == "cells"
    expected = program_output(path, tmp_path)
    started = time.perf_counter()
    printed, failure = notebook_run(cells)
    OUTCOMES.setdefault(path.stem, {})[form] = {
        "cells": len(cells), "seconds": round(time.perf_counter() - started, 1),
        "matches": failure is None and printed == expected, "expected_mismatch": bool(expected_mismatch)}
    if expected_mismatch:
        assert failure is not None, f"{path.name} now runs as a notebook: remove EXPECT-MISMATCH and its entry in {EXPLAINED.relative_to(ROOT)}"
        cell, reply = failure
        assert reply["ename"] == "CompileError", reply
        assert path.stem in EXPLAINED.read_text(), f"{EXPLAINED.relative_to(ROOT)} does not explain {path.stem}"
        OUTCOMES[path.stem][form]["error"] = f"In[{cell}]: {reply['evalue']}"
        return
    assert failure is None, f"{path.name} ({form}), cell {failure[0]}: {failure[1]['ename']}: " + "\n".join(failure[1]["traceback"])
    assert printed == expected


def test_corpus_summary():
    """Counts (and with BENCHBOOK_RECORD_RESULTS=1, results/swift-corpus.{json,md})."""
    if len(OUTCOMES) < len(PROGRAMS) or any(len(forms) < len(FORMS) for forms in OUTCOMES.values()):
        pytest.skip("the corpus did not run in full in this session")
    counts = {}
    for form in FORMS:
        matching = sorted(name for name, forms in OUTCOMES.items() if forms[form]["matches"])
        expected = sorted(name for name, forms in OUTCOMES.items() if forms[form]["expected_mismatch"])
        assert set(matching) | set(expected) == set(OUTCOMES), form
        counts[form] = {"cells": sum(forms[form]["cells"] for forms in OUTCOMES.values()),
                        "matching_swiftc": len(matching), "explained_mismatches": expected}
    summary = {"programs": len(OUTCOMES), "forms": counts, "programs_detail": OUTCOMES}
    print(json.dumps({k: v for k, v in summary.items() if k != "programs_detail"}))
    if os.environ.get("BENCHBOOK_RECORD_RESULTS") == "1":
        out = ROOT / "results"
        (out / "swift-corpus.json").write_text(json.dumps(summary, indent=2) + "\n")

        def outcome(o):
            return "same output" if o["matches"] else "explained: " + o.get("error", "")
        rows = "\n".join(f"| {name} | {forms['cells']['cells']} | {outcome(forms['cells'])} | {outcome(forms['one cell'])} |"
                         for name, forms in sorted(OUTCOMES.items()))
        cut, whole = counts["cells"], counts["one cell"]
        (out / "swift-corpus.md").write_text(f"""# The Swift corpus as notebooks against swiftc

`BENCHBOOK_RECORD_RESULTS=1 make test-corpus` (Tests/python/test_swift_corpus.py): each
program in Tests/Corpus built with swiftc (`-module-name main`, as `swiftc main.swift` names
it) and run, and run in the kernel cut into its cells and whole as one cell; their standard
output compared. {summary['programs']} programs, {cut['cells']} cells. Cut into cells,
{cut['matching_swiftc']} print the same as swiftc and {len(cut['explained_mismatches'])} are mismatches
docs/cell-model.md explains; whole as one cell, {whole['matching_swiftc']} print the same.

| program | cells | cut into cells | whole, one cell |
|---|---|---|---|
{rows}
""")
