"""Executes the course notebooks headlessly through the installed "swift" kernel.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/run_notebooks.py            # every notebook
    PYTHONPATH=python .venv/bin/python scripts/notebooks/run_notebooks.py 03 05      # names containing 03 or 05

Each notebook runs with nbclient, its working directory notebooks/ (so relative paths such
as models/fashion_cnn.pt and data/... resolve as they do in JupyterLab). The executed copy,
with outputs, goes to results/executed/<name>. The run fails (exit status 1), naming the
notebook and the cell, when a cell shows an error output, a cell times out, or a notebook
takes longer than its budget (3 minutes by default). A summary table of the wall times is
printed at the end and written to results/executed/timings.txt.

Three more rules of the course material are checked on every run:
- no cell may write to standard error (students read red text as an error: runtime log
  lines, warnings and stack frames must not reach a notebook);
- every ```swift snippet in a markdown cell that offers it with "**Try:**" runs as written:
  after the last cell, in the same kernel, each snippet runs as an extra cell (not saved in
  the executed copy) and must give no error output (standard error is allowed there: one
  snippet turns the runtimes' log lines on, on purpose);
- no sentence says more than its numbers (scripts/notebooks/check_claims.py): every verdict
  an output writes (faster, slower, equivalent, undecided) agrees with its own interval, no
  output states a direction without one, and no notebook's markdown states a direction, a
  multiplier, a comparison next to a number, a duration or size of this run, or a typed fact
  about this machine (quotations aside); the counts are printed for each notebook.
"""
import argparse
import os
import re
import subprocess
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

from benchbook_kit import ROOT
from benchbook_kit.claims import NotebookError, check_notebook

NOTEBOOKS = os.path.join(ROOT, "notebooks")
OUT = os.path.join(ROOT, "results", "executed")

DEFAULT_BUDGET_SECONDS = 180   # the course's limit per notebook on a 2-core machine


def notebook_list(filters):
    names = sorted(n for n in os.listdir(NOTEBOOKS) if n.endswith(".ipynb") and n[:2].isdigit())
    names.append("benchmarks-and-charts.ipynb")
    names = [n for n in names if os.path.exists(os.path.join(NOTEBOOKS, n))]
    if filters:
        names = [n for n in names if any(f in n for f in filters)]
    return names


def first_line(source):
    lines = [line for line in source.splitlines() if line.strip()]
    return lines[0][:80] if lines else "(empty cell)"


def error_outputs(nb):
    """(cell index, text) of every error output, and of stderr text that reports a failure."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                text = "\n".join(output.get("traceback") or [output.get("ename", ""), output.get("evalue", "")])
                found.append((index, text))
    return found


def stderr_outputs(nb):
    """(cell index, text) of every standard error stream output."""
    found = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                found.append((index, output.get("text", "")))
    return found


SNIPPET = re.compile(r"```swift\n(.*?)```", re.S)


def try_snippets(nb):
    """The ```swift blocks of every markdown cell that offers them with "**Try:**"."""
    snippets = []
    for cell in nb.cells:
        if cell.cell_type == "markdown" and "**Try:**" in cell.source:
            snippets.extend(block.strip() for block in SNIPPET.findall(cell.source))
    return snippets


def execute(client, nb, snippets):
    """Executes every cell, then each snippet as an extra cell in the same kernel; returns
    the executed snippet cells."""
    client.reset_execution_trackers()
    executed = []
    with client.setup_kernel():
        reply = client.wait_for_reply(client.kc.kernel_info())
        if reply is not None and "language_info" in reply["content"]:
            nb.metadata["language_info"] = reply["content"]["language_info"]
        for index, cell in enumerate(list(nb.cells)):
            client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
        for snippet in snippets:
            cell = nbformat.v4.new_code_cell(snippet)
            nb.cells.append(cell)  # nbclient stores the executed cell back by index
            try:
                client.execute_cell(cell, len(nb.cells) - 1)
            finally:
                nb.cells.pop()
            executed.append(cell)
    return executed


def run_one(name, budget, cell_timeout):
    path = os.path.join(NOTEBOOKS, name)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name="swift", timeout=cell_timeout, allow_errors=True,
                            resources={"metadata": {"path": NOTEBOOKS}})
    start = time.monotonic()
    failure = None
    snippets = try_snippets(nb)
    executed_snippets = []
    try:
        executed_snippets = execute(client, nb, snippets)
    except CellTimeoutError as error:
        failure = f"a cell timed out after {cell_timeout} s: {error}"
    except CellExecutionError as error:  # not raised with allow_errors, kept for safety
        failure = str(error)
    except Exception as error:  # kernel died, could not start, ...
        failure = f"{type(error).__name__}: {error}"
    seconds = time.monotonic() - start
    os.makedirs(OUT, exist_ok=True)
    executed_path = os.path.join(OUT, name)
    nbformat.write(nb, executed_path)
    problems = []
    try:
        comparisons, sentences, claim_problems = check_notebook(executed_path)
        print(f"  claims: {sentences} sentences checked ({comparisons} computed comparisons), "
              f"{claim_problems.total} problem(s)", flush=True)
        problems += [f"a claim says more than its numbers: {problem}" for problem in claim_problems]
    except NotebookError as error:
        problems.append(f"the claims checker cannot read the executed notebook: {error}")
    if failure:
        problems.append(failure)
    for index, text in error_outputs(nb):
        problems.append(f"cell {index} ({first_line(nb.cells[index].source)!r}) has an error output:\n{text}")
    for index, text in stderr_outputs(nb):
        problems.append(f"cell {index} ({first_line(nb.cells[index].source)!r}) wrote to standard error:\n{text[:2000]}")
    if len(executed_snippets) < len(snippets) and not failure:
        problems.append(f"only {len(executed_snippets)} of {len(snippets)} Try snippets ran")
    for cell in executed_snippets:
        snippet_notebook = nbformat.v4.new_notebook(cells=[cell])
        for _, text in error_outputs(snippet_notebook):
            problems.append(f"the Try snippet {first_line(cell.source)!r} fails as written:\n{text[:2000]}")
    if seconds > budget:
        problems.append(f"took {seconds:.0f} s, over its budget of {budget} s")
    return seconds, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("filters", nargs="*", help="run only notebooks whose name contains one of these")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_SECONDS,
                        help="seconds a whole notebook may take (default 180)")
    parser.add_argument("--cell-timeout", type=int, default=600, help="seconds one cell may take")
    args = parser.parse_args()

    if not os.path.exists(os.path.join(NOTEBOOKS, "data", "photo-style", "labels.csv")):
        # The photo-style set is generated, not committed (make notebook-data does the same).
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "notebooks", "make_notebook_data.py")], check=True)
    names = notebook_list(args.filters)
    if not names:
        print("no notebooks matched", file=sys.stderr)
        return 1
    rows, failed = [], []
    for name in names:
        print(f"executing {name} ...", flush=True)
        seconds, problems = run_one(name, args.budget, args.cell_timeout)
        status = "ok" if not problems else "FAILED"
        rows.append((name, seconds, status))
        print(f"  {status} in {seconds:.1f} s -> results/executed/{name}", flush=True)
        for problem in problems:
            print(f"  {name}: {problem}", file=sys.stderr, flush=True)
        if problems:
            failed.append(name)
    summary = "\n".join(f"{name:45s} {seconds:7.1f} s  {status}" for name, seconds, status in rows)
    print("\n" + summary)
    with open(os.path.join(OUT, "timings.txt"), "w") as f:
        f.write(f"command: PYTHONPATH=python .venv/bin/python scripts/notebooks/run_notebooks.py {' '.join(sys.argv[1:])}\n")
        f.write(f"machine: {os.cpu_count()} logical cores; budget {args.budget:.0f} s per notebook\n")
        f.write(summary + "\n")
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    # The closing line CI reads: how many notebooks ran clean.
    print(f"\nnotebooks: {len(rows) - len(failed)} passed, {len(failed)} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
