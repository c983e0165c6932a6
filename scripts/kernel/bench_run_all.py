"""Restart & Run All with the cell cache (issue 34): each course notebook run in a fresh kernel
with an empty user cache (the first run: every cell compiled and stored), then the kernel
restarted and every cell run again (a teacher's "Restart & Run All": every cell loaded from the
user's cache), in the same run, one notebook after the other.

    PYTHONPATH=python .venv/bin/python scripts/kernel/bench_run_all.py --out results     (make bench-run-all)

Per notebook and run: the wall time of Run All (the first execute_request sent to the last
execute_reply received), what the kernel spent compiling and linking or loading from the cache
(its BENCHBOOK_TRACE lines), and the cache's hits and misses. Written to
results/cell-cache-run-all.{json,md}. A measurement, not a test: the load averages are recorded.
"""
import argparse
import json
import os
import re
import tempfile
import time
from pathlib import Path

from jupyter_client import KernelManager

from benchbook_kit import ROOT
from benchbook_kit.kernel import run_cell


NOTEBOOKS = ["01-loading.ipynb", "02-normalising.ipynb", "03-classifying.ipynb", "04-preprocessing-for-photos.ipynb"]
STEP = re.compile(r"\] (cell compiler|swift-frontend|ld\.gold|ld\.lld|cell cache: hit [0-9a-f]+(?: \(shared\))?(?: \(compile errors\))?): ([0-9.]+) ms")


def run_all(name, cache, log):
    cells = ["".join(c["source"]) for c in json.loads((ROOT / "notebooks" / name).read_text())["cells"] if c["cell_type"] == "code"]
    env = dict(os.environ, BENCHBOOK_TRACE="1", BENCHBOOK_CELL_CACHE=str(cache))
    env.pop("BENCHBOOK_CELL_CACHE_READONLY", None)
    km = KernelManager(kernel_name=os.environ.get("BENCHBOOK_KERNEL_NAME", "swift"))
    with open(log, "w") as stderr:
        km.start_kernel(env=env, cwd=str(ROOT / "notebooks"), stderr=stderr)
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=120)
        errors = 0
        started = time.monotonic()
        for code in cells:
            reply, _ = run_cell(kc, code, timeout=900)
            errors += reply["status"] != "ok"
        seconds = time.monotonic() - started
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    text = Path(log).read_text()
    steps = {}
    for match in STEP.finditer(text):
        kind = "cache" if match.group(1).startswith("cell cache") else match.group(1)
        steps[kind] = steps.get(kind, 0.0) + float(match.group(2)) / 1000
    return {"cells": len(cells), "errors": errors, "seconds": seconds, "steps": steps,
            "compile_seconds": sum(steps.values()),
            "hits": len(re.findall(r"cell cache: hit ", text)), "misses": len(re.findall(r"cell cache: miss ", text))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "results"))
    parser.add_argument("--notebooks", default=",".join(NOTEBOOKS))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="benchbook-run-all-"))
    uptime = os.popen("uptime").read().strip()
    rows = []
    for name in args.notebooks.split(","):
        cache = work / "cache"   # one user cache for the whole run, as a user's ~/.cache
        load_before = os.getloadavg()
        first = run_all(name, cache, work / f"{name}-first.log")
        again = run_all(name, cache, work / f"{name}-again.log")
        rows.append({"notebook": name, "first": first, "again": again, "load_before": load_before, "load_after": os.getloadavg()})
        print(f"{name}: first {first['seconds']:.1f} s (compile {first['compile_seconds']:.1f} s, {first['misses']} misses), "
              f"again {again['seconds']:.1f} s (compile {again['compile_seconds']:.2f} s, {again['hits']} hits, "
              f"{again['misses']} misses)", flush=True)
    record = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "uptime_before": uptime,
              "uptime_after": os.popen("uptime").read().strip(), "cpus": os.cpu_count(), "rows": rows,
              "command": f"make bench-run-all (scripts/kernel/bench_run_all.py --notebooks {args.notebooks})"}
    out = Path(args.out)
    (out / "cell-cache-run-all.json").write_text(json.dumps(record, indent=1) + "\n")
    lines = ["# Restart & Run All with the cell cache", "",
             f"Measured {record['date']} on this machine ({record['cpus']} cores, shared: the load averages are in each row; "
             f"uptime at the start `{uptime}`, at the end `{record['uptime_after']}`).", "",
             f"Command: `{record['command']}`", "",
             "Each notebook: a fresh kernel with an empty user cache runs every cell (*first*: each cell compiled and "
             "stored), then a fresh kernel with the same cache runs every cell again (*again*, a teacher's Restart & Run "
             "All; the same cells in the same order, so the same cell numbers). *Run All* is the first execute_request "
             "to the last execute_reply; *compile* what the kernel traced for compiling and linking (the cell compiler, "
             "swift-frontend, the linker) or, again, for loading the cells from the cache; *hits / misses* its cache "
             "lookups (a cell that compiles twice, as an opaque type needs, looks up twice).", "",
             "| notebook | cells | Run All, first | Run All, again | again / first | compile, first | compile, again | again / first | hits / misses, again | load before → after |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        first, again = row["first"], row["again"]
        lines.append(f"| {row['notebook']} | {first['cells']} | {first['seconds']:.1f} s | {again['seconds']:.1f} s | "
                     f"{again['seconds'] / first['seconds']:.2f} | {first['compile_seconds']:.2f} s | {again['compile_seconds']:.2f} s | "
                     f"{again['compile_seconds'] / max(first['compile_seconds'], 1e-9):.3f} | {again['hits']} / {again['misses']} | "
                     f"{row['load_before'][0]:.2f} → {row['load_after'][0]:.2f} |")
    errors = [f"{r['notebook']} ({k}): {r[k]['errors']}" for r in rows for k in ("first", "again") if r[k]["errors"]]
    lines += ["", "Cells that ended in an error: " + (", ".join(errors) if errors else "none") + ".", ""]
    (out / "cell-cache-run-all.md").write_text("\n".join(lines))
    print(f"wrote {out}/cell-cache-run-all.json, .md")


if __name__ == "__main__":
    main()
