"""Kernel latency through a real jupyter_client, written to results/kernel-latency.{json,md}.

    .venv/bin/python scripts/kernel/bench_latency.py --out results

Measures, against the installed "swift" kernelspec:
- start-up: KernelManager.start_kernel() until the kernel_info_reply arrives (10 kernels);
- first cell: execute_request to idle for the first cell of a fresh kernel (starts the cell
  host and loads the notebook library);
- trivial cell: `let a = 1`, execute_request to idle, 20 times;
- growth: a 100-cell notebook (bindings, functions, types, uses of earlier cells), each
  cell's time, comparing the 5th cell with the 100th and the medians of cells 1-10 and 91-100.
Times include compiling the cell with swiftc; the machine's load average is recorded
because other work on the 2 cores inflates every figure.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from jupyter_client.manager import KernelManager

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests" / "python"))
from kernel_helpers import run_cell  # noqa: E402


def timed(kc, code):
    start = time.perf_counter()
    reply, _ = run_cell(kc, code)
    elapsed = time.perf_counter() - start
    if reply["status"] != "ok":
        raise SystemExit(f"cell failed: {code!r}: {reply.get('ename')}: {reply.get('evalue')}")
    return elapsed


def start_kernel():
    km = KernelManager(kernel_name="swift")
    start = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.kernel_info()
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["header"]["msg_type"] == "kernel_info_reply":
            break
    return km, kc, time.perf_counter() - start


def growth_cell(i):
    """Cell i (from 1) of the 100-cell notebook: a mix of what notebooks hold, each cell
    using names from the cells before it."""
    kind = i % 5
    if kind == 1:
        return f"let value{i} = {i}"
    if kind == 2:
        return f"func square{i}(_ x: Int) -> Int {{ x * x }}\nsquare{i}(value{i - 1})"
    if kind == 3:
        return f"struct Item{i} {{ var id: Int }}\nlet item{i} = Item{i}(id: value{i - 2})"
    if kind == 4:
        return f"var total{i} = item{i - 1}.id + square{i - 2}(2)\ntotal{i} += 1"
    return f'print("cell {i}:", total{i - 1})'


def main():
    parser = argparse.ArgumentParser(description="Benchbook kernel latency")
    parser.add_argument("--out", default="results")
    args = parser.parse_args()

    startups, first_cells = [], []
    for run in range(10):
        km, kc, startup = start_kernel()
        startups.append(startup)
        if run < 3:
            first_cells.append(timed(kc, "let a = 1"))
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        print(f"start-up {run + 1}/10: {startup:.3f} s", flush=True)

    km, kc, _ = start_kernel()
    timed(kc, "let warm = 0")
    trivial = []
    for i in range(20):
        trivial.append(timed(kc, "let a = 1"))
        print(f"trivial cell {i + 1}/20: {trivial[-1]:.3f} s", flush=True)
    kc.stop_channels()
    km.shutdown_kernel(now=True)

    km, kc, _ = start_kernel()
    growth = []
    for i in range(1, 101):
        growth.append(timed(kc, growth_cell(i)))
        if i % 10 == 0:
            print(f"growth notebook: cell {i}/100, last {growth[-1]:.3f} s", flush=True)
    kc.stop_channels()
    km.shutdown_kernel(now=True)

    median = statistics.median
    record = {
        "what": "Benchbook kernel latency through jupyter_client (execute_request to idle)",
        "command": "make bench-kernel  (scripts/kernel/bench_latency.py)",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform(),
                    "load_average_at_end": os.getloadavg()},
        "startup_to_kernel_info_s": {"median": median(startups), "runs": startups},
        "first_cell_s": {"median": median(first_cells), "runs": first_cells},
        "trivial_cell_s": {"median": median(trivial), "runs": trivial},
        "growth_notebook_s": {
            "cell_5": growth[4], "cell_100": growth[99], "ratio_100_to_5": growth[99] / growth[4],
            "median_cells_1_10": median(growth[:10]), "median_cells_91_100": median(growth[90:]),
            "ratio_of_medians": median(growth[90:]) / median(growth[:10]), "runs": growth,
        },
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "kernel-latency.json").write_text(json.dumps(record, indent=2) + "\n")
    g = record["growth_notebook_s"]
    (out / "kernel-latency.md").write_text(f"""# Kernel latency

Measured {record['date']} on {os.cpu_count()} cores ({platform.platform()}), load average at the end
{', '.join(f'{x:.2f}' for x in os.getloadavg())}. Reproduce with `make bench-kernel`.
Each figure is execute_request to the idle status through jupyter_client, compile included.

| measure | value |
|---|---|
| kernel start to kernel_info_reply, median of 10 | {median(startups):.3f} s |
| first cell of a fresh kernel (host start + library load), median of 3 | {median(first_cells):.3f} s |
| trivial cell `let a = 1`, median of 20 | {median(trivial):.3f} s |
| 100-cell notebook: 5th cell / 100th cell | {g['cell_5']:.3f} s / {g['cell_100']:.3f} s (ratio {g['ratio_100_to_5']:.2f}) |
| 100-cell notebook: median of cells 1-10 / 91-100 | {g['median_cells_1_10']:.3f} s / {g['median_cells_91_100']:.3f} s (ratio {g['ratio_of_medians']:.2f}) |
""")
    print((out / "kernel-latency.md").read_text())


if __name__ == "__main__":
    main()
