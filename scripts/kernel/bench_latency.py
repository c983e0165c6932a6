"""Kernel latency through a real jupyter_client, written to results/kernel-latency.{json,md}.

    PYTHONPATH=python .venv/bin/python scripts/kernel/bench_latency.py --out results

Measures the installed "swift" kernelspec beside ipykernel ("python3", the same
jupyter_client, the same machine, the same run, interleaved):
- start-up: KernelManager.start_kernel() until the kernel_info_reply arrives, 10 kernels
  of each, alternating;
- first cell: execute_request to idle for the first cell of a fresh kernel (the cell host
  starts while the kernel starts), median of 3;
- trivial cell: 3 runs of 100 cells `let aN = N` (ipykernel: `aN = N`), p50 and p90 of each
  run, their medians; cell 100 against cell 5 (and the medians of cells 96-100 and 3-7);
- a cell using the library (`try Tensor(shape: [2], float32: [1, 2]).softmax()`) and a cell
  defining a struct, 30 each, p50/p90, with the per-step trace the kernel writes under
  BENCHBOOK_TRACE=1 (parse, cell compiler or swift-frontend, the linker (ld.gold), load and run: medians);
- before/after: the trivial, library and struct cells again, 30 each, with
  BENCHBOOK_COMPILE_SERVER=0 (swift-frontend started for every cell, as before the cell
  compiler process), each right after the same cells on the default kernel;
- optimisation levels: trivial cells on kernels started with BENCHBOOK_OPTIMIZE=auto (the
  default: -O only for cells with loops, functions or closures, so a trivial cell is
  -Onone), =on (every cell -O) and =off, 3 rounds of 30 each, alternating, with the cell
  compiler step's median (issue 23);
- growth: a kernel that has run 100 (then 300) trivial cells and a fresh one, taking cells in turn (so
  the machine's slow and fast spells fall on both), and a 100-cell notebook (bindings,
  functions, types, uses of earlier cells);
- with --compare-kernel NAME (a kernelspec installed from an earlier build, for example
  `scripts/install_kernelspec.py --name swift-before --kernel <old checkout>/.build/release/benchbook-kernel`):
  start-up and the first cell (10 kernels of each), then the trivial, library and struct
  cells (3 kernels of 30 cells each), on that kernel and on "swift", alternating, to show
  what a change did in one run (`make bench-kernel COMPARE_KERNEL=swift-before`).
Times include compiling the cell; the load average is recorded (other work on the 2 cores
inflates every figure; ratios against ipykernel within the run are the fairer measure).
"""
import argparse
import json
import os
import platform
import re
import statistics
import tempfile
import time
from pathlib import Path

# A benchmark of compiles and cells keeps no cell cache (issue 34), or a second run would load
# every cell it measures from the first run's: set BENCHBOOK_CELL_CACHE to measure with one.
os.environ.setdefault("BENCHBOOK_CELL_CACHE", "off")
from queue import Empty

from jupyter_client.manager import KernelManager

from benchbook_kit.kernel import run_cell
from benchbook_kit.statistics import percentile

median = statistics.median


def p90(values):
    return percentile(values, 90)


def timed(kc, code):
    start = time.perf_counter()
    reply, _ = run_cell(kc, code)
    elapsed = time.perf_counter() - start
    if reply["status"] != "ok":
        raise SystemExit(f"cell failed: {code!r}: {reply.get('ename')}: {reply.get('evalue')}")
    return elapsed


def start_timed(name="swift", trace_file=None, env=None):
    km = KernelManager(kernel_name=name)
    options = {"env": dict(os.environ, **(env or {}))}
    if trace_file is not None:
        options = {"env": dict(options["env"], BENCHBOOK_TRACE="1"), "stderr": trace_file}
    start = time.perf_counter()
    km.start_kernel(**options)
    kc = km.client()
    kc.start_channels()
    kc.kernel_info()
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["header"]["msg_type"] == "kernel_info_reply":
            break
    elapsed = time.perf_counter() - start
    # Not timed: IOPub must be subscribed before the first cell, or that cell's idle status
    # can be lost (ZeroMQ's slow joiner). Ask again until a status arrives on IOPub.
    while True:
        kc.kernel_info()
        try:
            kc.get_iopub_msg(timeout=0.5)
            break
        except Empty:
            continue
    while kc.shell_channel.msg_ready():
        kc.get_shell_msg(timeout=1)
    while kc.iopub_channel.msg_ready():
        kc.get_iopub_msg(timeout=1)
    return km, kc, elapsed


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


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


def hundred_cells(name):
    """One run of 100 trivial cells after a warm-up cell; the 100 times."""
    km, kc, _ = start_timed(name)
    template = "let a{} = {}" if name == "swift" else "a{} = {}"
    timed(kc, template.format("warm", 0))
    times = [timed(kc, template.format(i, i)) for i in range(1, 101)]
    stop(km, kc)
    return times


def traced_cells(make_cell, count=30, env=None, name="swift"):
    """`count` cells through a kernel with BENCHBOOK_TRACE=1: their times and each step's median."""
    with tempfile.TemporaryFile(mode="w+") as trace:
        km, kc, _ = start_timed(name, trace_file=trace, env=env)
        time.sleep(1)  # the compiler process loads while a user types the first cell
        timed(kc, make_cell(0))
        trace.flush()
        skip = trace.tell()
        times = [timed(kc, make_cell(i)) for i in range(1, count + 1)]
        stop(km, kc)
        trace.seek(skip)
        steps = {}
        for match in re.finditer(r"\[benchbook trace\] (.+?): ([0-9.]+) ms", trace.read()):
            steps.setdefault(match.group(1), []).append(float(match.group(2)))
    return times, {step: round(median(values), 1) for step, values in steps.items()}


def compare_kernels(before, label, rounds=3, starts=10):
    """Start-up and the first cell, `starts` kernels of each, then the trivial, library and
    struct cells, `rounds` kernels of 30 cells each, on kernelspec `before` and on "swift",
    alternating; medians of the start-ups and first cells, p50/p90 of the pooled cell times."""
    startup = {before: {"start_s": [], "first_cell_s": []}, "swift": {"start_s": [], "first_cell_s": []}}
    for _ in range(starts):
        for name in (before, "swift"):
            km, kc, elapsed = start_timed(name)
            startup[name]["start_s"].append(elapsed)
            startup[name]["first_cell_s"].append(timed(kc, "let a = 1"))
            stop(km, kc)
    for name in (before, "swift"):
        runs = startup[name]
        runs["start_median_s"] = median(runs["start_s"])
        runs["first_cell_median_s"] = median(runs["first_cell_s"])
        runs["start_plus_first_cell_median_s"] = median(map(sum, zip(runs["start_s"], runs["first_cell_s"])))
    print(f"start-up, {label} / now: {startup[before]['start_median_s']:.3f} / {startup['swift']['start_median_s']:.3f} s; "
          f"first cell {startup[before]['first_cell_median_s']:.3f} / {startup['swift']['first_cell_median_s']:.3f} s", flush=True)
    kinds = {"trivial": lambda i: f"let c{i} = {i}",
             "library": lambda i: f"let csoft{i} = try Tensor(shape: [2], float32: [1, 2]).softmax()",
             "struct": lambda i: f"struct CShape{i} {{ var side: Double }}"}
    table = {}
    for kind, make_cell in kinds.items():
        times = {before: [], "swift": []}
        steps = {before: [], "swift": []}
        for _ in range(rounds):
            for name in (before, "swift"):
                cell_times, cell_steps = traced_cells(make_cell, name=name)
                times[name] += cell_times
                steps[name].append(cell_steps)
        table[kind] = {side: {**summary(times[name]), "steps_ms": steps[name], "times_s": times[name]}
                       for side, name in (("before", before), ("after", "swift"))}
        print(f"{kind} cell, {label} / now: {summary(times[before])} / {summary(times['swift'])}", flush=True)
    return {"before_kernel": before, "before_label": label, "rounds": rounds,
            "startup": {"before": startup[before], "after": startup["swift"]}, "cells": table}


def optimization_levels(rounds=3):
    """Trivial cells under each `%optimize` setting (BENCHBOOK_OPTIMIZE), `rounds` kernels of
    30 cells each, alternating; p50/p90 of the pooled times and the compile step's median."""
    levels = ("auto", "on", "off")
    times, steps = {level: [] for level in levels}, {level: [] for level in levels}
    for _ in range(rounds):
        for level in levels:
            cell_times, cell_steps = traced_cells(lambda i: f"let o{i} = {i}", env={"BENCHBOOK_OPTIMIZE": level})
            times[level] += cell_times
            steps[level].append(cell_steps.get("cell compiler", 0))
    result = {level: {**summary(times[level]), "cell_compiler_step_ms": median(steps[level])} for level in levels}
    print(f"trivial cell by optimisation level: {result}", flush=True)
    return result


def aged_against_fresh(name="swift", age=300, cells=60, rounds=3):
    """Growth without the machine's drift: a kernel that has run `age` trivial cells and a
    fresh one take trivial cells in turn, `cells` each, `rounds` times; medians of each."""
    runs = []
    for _ in range(rounds):
        old_km, old_kc, _ = start_timed(name)
        for i in range(age):
            timed(old_kc, f"let old{i} = {i}")
        new_km, new_kc, _ = start_timed(name)
        time.sleep(1)  # the fresh kernel's compiler process loads, as in traced_cells
        timed(new_kc, "let warm = 0")
        aged, fresh = [], []
        for i in range(cells):
            aged.append(timed(old_kc, f"let turn{i} = {i}"))
            fresh.append(timed(new_kc, f"let turn{i} = {i}"))
        stop(old_km, old_kc)
        stop(new_km, new_kc)
        runs.append({"fresh_p50_ms": round(median(fresh) * 1000, 1), "aged_p50_ms": round(median(aged) * 1000, 1),
                     "ratio": median(aged) / median(fresh)})
        print(f"after {age} cells / fresh kernel, in turn: {runs[-1]}", flush=True)
    return {"age_cells": age, "cells_each": cells, "runs": runs, "ratio_median": median(r["ratio"] for r in runs)}


def summary(times):
    return {"p50_ms": round(median(times) * 1000, 1), "p90_ms": round(p90(times) * 1000, 1)}


def main():
    parser = argparse.ArgumentParser(description="Benchbook kernel latency")
    parser.add_argument("--out", default="results")
    parser.add_argument("--compare-kernel", help="kernelspec of an earlier build to compare with")
    parser.add_argument("--compare-label", help="what the earlier build is (for example a commit)")
    args = parser.parse_args()
    load_at_start = os.getloadavg()
    command = "make bench-kernel" + (f" COMPARE_KERNEL={args.compare_kernel}" if args.compare_kernel else "") \
        + (f' COMPARE_LABEL="{args.compare_label}"' if args.compare_label else "")

    startups = {"swift": [], "python3": []}
    first_cells = []
    for run in range(10):
        for name in ("swift", "python3"):
            km, kc, startup = start_timed(name)
            startups[name].append(startup)
            if name == "swift" and run < 3:
                first_cells.append(timed(kc, "let a = 1"))
            stop(km, kc)
        print(f"start-up {run + 1}/10: swift {startups['swift'][-1]:.3f} s, "
              f"ipykernel {startups['python3'][-1]:.3f} s", flush=True)

    trivial, baseline = [], []
    for run in range(3):
        trivial.append(hundred_cells("swift"))
        baseline.append(hundred_cells("python3"))
        print(f"100 trivial cells, run {run + 1}/3: swift p90 {p90(trivial[-1]) * 1000:.1f} ms, "
              f"ipykernel p90 {p90(baseline[-1]) * 1000:.1f} ms", flush=True)

    library_times, library_steps = traced_cells(
        lambda i: f"let soft{i} = try Tensor(shape: [2], float32: [1, 2]).softmax()")
    print(f"library cell: {summary(library_times)}, steps {library_steps}", flush=True)
    struct_times, struct_steps = traced_cells(lambda i: f"struct Shape{i} {{ var side: Double }}")
    print(f"struct cell: {summary(struct_times)}, steps {struct_steps}", flush=True)
    trivial_steps = traced_cells(lambda i: f"let t{i} = {i}")[1]

    # Before/after in one run: the same three cells without the cell compiler process.
    kinds = {"trivial": lambda i: f"let b{i} = {i}",
             "library": lambda i: f"let bsoft{i} = try Tensor(shape: [2], float32: [1, 2]).softmax()",
             "struct": lambda i: f"struct BShape{i} {{ var side: Double }}"}
    before_after = {}
    for kind, make_cell in kinds.items():
        after_times, after_steps = traced_cells(make_cell)
        before_times, before_steps = traced_cells(make_cell, env={"BENCHBOOK_COMPILE_SERVER": "0"})
        before_after[kind] = {"compiler_process": {**summary(after_times), "steps_ms": after_steps},
                              "swift_frontend_per_cell": {**summary(before_times), "steps_ms": before_steps}}
        print(f"{kind} cell, before/after: {before_after[kind]}", flush=True)

    compared = compare_kernels(args.compare_kernel, args.compare_label or args.compare_kernel) \
        if args.compare_kernel else None
    levels = optimization_levels()

    aged = {"100": aged_against_fresh(age=100, rounds=5), "300": aged_against_fresh(age=300)}

    km, kc, _ = start_timed()
    growth = []
    for i in range(1, 101):
        growth.append(timed(kc, growth_cell(i)))
        if i % 10 == 0:
            print(f"growth notebook: cell {i}/100, last {growth[-1]:.3f} s", flush=True)
    stop(km, kc)

    runs = [summary(times) for times in trivial]
    base_runs = [summary(times) for times in baseline]
    cell5 = median([times[4] for times in trivial])
    cell100 = median([times[99] for times in trivial])
    early = median([median(times[2:7]) for times in trivial])
    late = median([median(times[95:100]) for times in trivial])
    record = {
        "what": "Benchbook kernel latency through jupyter_client (execute_request to idle), ipykernel beside it",
        "command": f"{command}  (scripts/kernel/bench_latency.py)",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform(),
                    "load_average_at_start": load_at_start, "load_average_at_end": os.getloadavg()},
        "startup_to_kernel_info_s": {
            "swift_median": median(startups["swift"]), "ipykernel_median": median(startups["python3"]),
            "ratio": median(startups["swift"]) / median(startups["python3"]), "runs": startups},
        "first_cell_s": {"median": median(first_cells), "runs": first_cells},
        "trivial_cell_ms": {
            "runs": runs, "p50_median": median([r["p50_ms"] for r in runs]),
            "p90_median": median([r["p90_ms"] for r in runs]),
            "cell_5_s": cell5, "cell_100_s": cell100, "ratio_100_to_5": cell100 / cell5,
            "median_cells_3_7_s": early, "median_cells_96_100_s": late, "ratio_late_to_early": late / early,
            "steps_ms": trivial_steps,
            "ipykernel_runs": base_runs, "ipykernel_p90_median": median([r["p90_ms"] for r in base_runs]),
            "times_s": trivial},
        "trivial_cell_aged_against_fresh": aged,
        "library_cell_ms": {**summary(library_times), "steps_ms": library_steps},
        "struct_cell_ms": {**summary(struct_times), "steps_ms": struct_steps},
        "before_after_ms": before_after,
        "trivial_cell_by_optimization_ms": levels,
        "compared_with_earlier_build_ms": compared,
        "growth_notebook_s": {
            "cell_5": growth[4], "cell_100": growth[99], "ratio_100_to_5": growth[99] / growth[4],
            "median_cells_1_10": median(growth[:10]), "median_cells_91_100": median(growth[90:]),
            "ratio_of_medians": median(growth[90:]) / median(growth[:10]), "runs": growth,
        },
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "kernel-latency.json").write_text(json.dumps(record, indent=2) + "\n")
    s, t, g = record["startup_to_kernel_info_s"], record["trivial_cell_ms"], record["growth_notebook_s"]

    def steps(values):
        return ", ".join(f"{name} {value:.1f}" for name, value in values.items())

    def rows(table):
        lines = []
        for kind, pair in table.items():
            before, after = pair["swift_frontend_per_cell"], pair["compiler_process"]
            lines.append(f"| {kind} | {before['p50_ms']:.1f} / {before['p90_ms']:.1f} ms | "
                         f"{after['p50_ms']:.1f} / {after['p90_ms']:.1f} ms | "
                         f"{before['steps_ms'].get('swift-frontend', 0):.1f} / {after['steps_ms'].get('cell compiler', 0):.1f} ms |")
        return "\n".join(lines)

    def aged_label(result):
        return (f"trivial cell after {result['age_cells']} cells / in a fresh kernel, the two in turn "
                f"(p50s of {len(result['runs'])} runs of {result['cells_each']} each)")

    def aged_row(result):
        aged_times = " / ".join(f"{r['aged_p50_ms']:.1f}" for r in result["runs"])
        fresh_times = " / ".join(f"{r['fresh_p50_ms']:.1f}" for r in result["runs"])
        return f"{aged_times} against {fresh_times} ms (median ratio {result['ratio_median']:.3f})"

    def compared_rows():
        if compared is None:
            return ""
        before, after = compared["startup"]["before"], compared["startup"]["after"]
        lines = [f"""
Before and after {compared['before_label']} (kernelspec `{compared['before_kernel']}`, built from it,
against this build; start-up and the first cell `let a = 1` of a fresh kernel, medians of {len(before['start_s'])}
kernels each, then {compared['rounds']} kernels of 30 cells each, alternating, pooled):

| measure | before | after |
|---|---|---|
| kernel start to kernel_info_reply | {before['start_median_s']:.3f} s | {after['start_median_s']:.3f} s |
| first cell of a fresh kernel | {before['first_cell_median_s']:.3f} s | {after['first_cell_median_s']:.3f} s |
| start to the end of the first cell | {before['start_plus_first_cell_median_s']:.3f} s | {after['start_plus_first_cell_median_s']:.3f} s |

| cell | before: p50 / p90 | after: p50 / p90 |
|---|---|---|"""]
        for kind, pair in compared["cells"].items():
            lines.append(f"| {kind} | {pair['before']['p50_ms']:.1f} / {pair['before']['p90_ms']:.1f} ms | "
                         f"{pair['after']['p50_ms']:.1f} / {pair['after']['p90_ms']:.1f} ms |")
        return "\n".join(lines) + "\n"

    (out / "kernel-latency.md").write_text(f"""# Kernel latency

Measured {record['date']} on {os.cpu_count()} cores ({platform.platform()}), load average
{', '.join(f'{x:.2f}' for x in load_at_start)} at the start and {', '.join(f'{x:.2f}' for x in os.getloadavg())} at the end.
Reproduce with `{command}`. Each figure is execute_request to the idle status through
jupyter_client, compile included; ipykernel {__import__('ipykernel').__version__} ran in the same run, interleaved.

| measure | Benchbook | ipykernel |
|---|---|---|
| kernel start to kernel_info_reply, median of 10 | {s['swift_median']:.3f} s | {s['ipykernel_median']:.3f} s (ratio {s['ratio']:.2f}) |
| first cell of a fresh kernel, median of 3 | {record['first_cell_s']['median']:.3f} s | |
| trivial cell, p50 (median of 3 runs of 100) | {t['p50_median']:.1f} ms | {median([r['p50_ms'] for r in base_runs]):.1f} ms |
| trivial cell, p90 (median of 3 runs of 100) | {t['p90_median']:.1f} ms | {t['ipykernel_p90_median']:.1f} ms |
| trivial cell: cell 100 / cell 5 (medians over the runs) | {t['cell_100_s'] * 1000:.1f} / {t['cell_5_s'] * 1000:.1f} ms (ratio {t['ratio_100_to_5']:.2f}) | |
| trivial cell: cells 96-100 / cells 3-7 (medians) | {t['median_cells_96_100_s'] * 1000:.1f} / {t['median_cells_3_7_s'] * 1000:.1f} ms (ratio {t['ratio_late_to_early']:.2f}) | |
| {aged_label(aged['100'])} | {aged_row(aged['100'])} | |
| {aged_label(aged['300'])} | {aged_row(aged['300'])} | |
| library cell `try Tensor(...).softmax()`, p50 / p90 of 30 | {record['library_cell_ms']['p50_ms']:.1f} / {record['library_cell_ms']['p90_ms']:.1f} ms | |
| struct cell `struct ShapeN {{ var side: Double }}`, p50 / p90 of 30 | {record['struct_cell_ms']['p50_ms']:.1f} / {record['struct_cell_ms']['p90_ms']:.1f} ms | |
| 100-cell notebook: 5th cell / 100th cell | {g['cell_5']:.3f} s / {g['cell_100']:.3f} s (ratio {g['ratio_100_to_5']:.2f}) | |
| 100-cell notebook: median of cells 1-10 / 91-100 | {g['median_cells_1_10']:.3f} s / {g['median_cells_91_100']:.3f} s (ratio {g['ratio_of_medians']:.2f}) | |

Steps (medians, ms, from `BENCHBOOK_TRACE=1`): trivial cell: {steps(t['steps_ms'])};
library cell: {steps(record['library_cell_ms']['steps_ms'])}; struct cell: {steps(record['struct_cell_ms']['steps_ms'])}.

Before and after the cell compiler process (30 cells of each kind, the two kernels one
after the other in this run; "before" is `BENCHBOOK_COMPILE_SERVER=0`, which starts
swift-frontend for every cell):

| cell | before: p50 / p90 | after: p50 / p90 | compile step before / after (median) |
|---|---|---|---|
{rows(before_after)}
{compared_rows()}
Trivial cell by `%optimize` setting (kernels started with `BENCHBOOK_OPTIMIZE`, 3 kernels of
30 cells each, alternating, pooled): `auto` (the default) compiles a trivial cell with
-Onone, `on` compiles every cell with -O.

| setting | p50 / p90 | cell compiler step, median |
|---|---|---|
""" + "\n".join(f"| {level} | {v['p50_ms']:.1f} / {v['p90_ms']:.1f} ms | {v['cell_compiler_step_ms']:.1f} ms |"
               for level, v in levels.items()) + "\n")
    print((out / "kernel-latency.md").read_text())


if __name__ == "__main__":
    main()
