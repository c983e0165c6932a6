"""Measures what recovery costs (issue 13) and writes results/recovery.{json,md}.

- Loop checks: a 10^8-iteration tight loop, with the interrupt checks the kernel inserts
  and without them (BENCHBOOK_LOOP_CHECKS=0), in a function (the trapping check) and at
  the top level of a cell (the throwing check); median of 3 `%time` runs each, same run.
- Snapshots on notebook 03: the host's resident memory and the snapshot's proportional
  share (PSS, what the copy costs the machine beyond shared pages) after the whole
  notebook; a trivial cell's p50 over 30 cells with snapshots and without
  (BENCHBOOK_SNAPSHOTS=0); the time to restore after a trap, as the kernel reports it.

Run with `make bench-recovery` (the kernel must be built and its kernelspec installed).
"""
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "python"))

from kernel_helpers import run_cell, text_of  # noqa: E402
from notebook_state import recovery_milliseconds, run_notebook, start_kernel  # noqa: E402
from test_kernel_seam import children, kernel_pid  # noqa: E402

LOOP_FUNCTION = "func tight() -> Int {\n    var n = 0\n    for i in 0..<100_000_000 { n &+= i }\n    return n\n}"
LOOP_TOP_LEVEL = "%time\nvar n = 0\nfor i in 0..<100_000_000 { n &+= i }\nn"
# A loop with work in it: the sum of squares of a 10^7-element array.
LOOP_WORK = ("let values = (0..<10_000_000).map { Double($0 % 1000) / 1000 }\n"
             "func sumOfSquares() -> Double {\n    var total = 0.0\n    for v in values { total += v * v }\n    return total\n}")


def progress(text):
    print(text, file=sys.stderr, flush=True)


def wall_seconds(stdout):
    match = re.search(r"Wall time: ([0-9.]+) (ns|µs|ms|s)\b", stdout)
    assert match, stdout
    scale = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}[match.group(2)]
    return float(match.group(1)) * scale


def loop_costs(checks):
    km, kc = start_kernel({"BENCHBOOK_LOOP_CHECKS": "1" if checks else "0"})
    try:
        assert run_cell(kc, LOOP_FUNCTION)[0]["status"] == "ok"
        assert run_cell(kc, LOOP_WORK)[0]["status"] == "ok"
        in_function, top_level, work = [], [], []
        for round in range(3):
            reply, outputs = run_cell(kc, "%time tight()")
            assert reply["status"] == "ok", reply
            in_function.append(wall_seconds(text_of(outputs)))
            reply, outputs = run_cell(kc, LOOP_TOP_LEVEL)
            assert reply["status"] == "ok", reply
            top_level.append(wall_seconds(text_of(outputs)))
            reply, outputs = run_cell(kc, "%time sumOfSquares()")
            assert reply["status"] == "ok", reply
            work.append(wall_seconds(text_of(outputs)))
            progress(f"  loop checks {'on' if checks else 'off'}, round {round + 1}/3: "
                     f"function {in_function[-1]:.3f} s, top level {top_level[-1]:.3f} s")
        return statistics.median(in_function), statistics.median(top_level), statistics.median(work)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def live(pid):
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def memory_kib(pid, field):
    path = f"/proc/{pid}/smaps_rollup" if field == "Pss" else f"/proc/{pid}/status"
    key = "Pss:" if field == "Pss" else "VmRSS:"
    for line in Path(path).read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1])
    raise RuntimeError(f"{key} not in {path}")


def notebook_03(snapshots):
    km, kc = start_kernel({"BENCHBOOK_SNAPSHOTS": "1" if snapshots else "0"})
    try:
        progress(f"  notebook 03 with snapshots {'on' if snapshots else 'off'}: running it")
        seconds = run_notebook(kc, "03-classifying.ipynb")
        figures = {"notebook_seconds": round(seconds, 1)}
        host = [pid for pid, name in children(kernel_pid(km)) if name == "benchbook-cell-host"][0]
        if snapshots:
            time.sleep(1)  # the copy before the newest exits once released
            copies = [pid for pid, _ in children(host) if live(pid)]
            figures["host_rss_mib"] = round(memory_kib(host, "Rss") / 1024, 1)
            figures["host_pss_mib"] = round(memory_kib(host, "Pss") / 1024, 1)
            figures["snapshot_pss_mib"] = round(sum(memory_kib(pid, "Pss") for pid in copies) / 1024, 1)
            figures["snapshots_alive"] = len(copies)
        latencies = []
        for index in range(30):
            started = time.monotonic()
            reply, _ = run_cell(kc, f"let trivial{index} = {index}")
            latencies.append(time.monotonic() - started)
            assert reply["status"] == "ok", reply
        figures["trivial_cell_p50_ms"] = round(statistics.median(latencies) * 1000, 1)
        if snapshots:
            reply, _ = run_cell(kc, "allLogits[10_000][0]")
            assert reply["ename"] == "Crash", reply
            figures["restore_ms"] = recovery_milliseconds(reply)
            reply, outputs = run_cell(kc, "evaluations.count")
            assert reply["status"] == "ok", reply
        progress(f"  {figures}")
        return figures
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def trivial_cell_p50(extra_env, count=30):
    """p50 of `let t = n` cells (compile, link, load, run) through jupyter_client."""
    km, kc = start_kernel(extra_env)
    try:
        run_cell(kc, "let warm = 0")
        latencies = []
        for index in range(count):
            started = time.monotonic()
            reply, _ = run_cell(kc, f"let t{index} = {index}")
            latencies.append(time.monotonic() - started)
            assert reply["status"] == "ok", reply
        return round(statistics.median(latencies) * 1000, 1)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main():
    load = os.getloadavg()[0]
    progress(f"load average at start: {load:.2f}")
    with_checks = loop_costs(True)
    without_checks = loop_costs(False)
    line_tables = [trivial_cell_p50({}), trivial_cell_p50({"BENCHBOOK_LINE_TABLES": "0"})]
    line_tables += [trivial_cell_p50({}), trivial_cell_p50({"BENCHBOOK_LINE_TABLES": "0"})]
    progress(f"  trivial cell p50 with / without line tables, twice: {line_tables}")
    with_snapshots = notebook_03(True)
    without_snapshots = notebook_03(False)
    result = {
        "load_average_at_start": round(load, 2),
        "loop_1e8_seconds": {
            "in_function": {"checks": round(with_checks[0], 3), "no_checks": round(without_checks[0], 3),
                            "ratio": round(with_checks[0] / without_checks[0], 2)},
            "top_level": {"checks": round(with_checks[1], 3), "no_checks": round(without_checks[1], 3),
                          "ratio": round(with_checks[1] / without_checks[1], 2)},
            "sum_of_squares_1e7": {"checks": round(with_checks[2], 3), "no_checks": round(without_checks[2], 3),
                                   "ratio": round(with_checks[2] / without_checks[2], 2)},
        },
        "notebook_03": {"snapshots": with_snapshots, "no_snapshots": without_snapshots},
        "trivial_cell_p50_ms_line_tables": {"with": [line_tables[0], line_tables[2]], "without": [line_tables[1], line_tables[3]]},
    }
    out = ROOT / "results"
    (out / "recovery.json").write_text(json.dumps(result, indent=2) + "\n")
    loops = result["loop_1e8_seconds"]
    s, n = with_snapshots, without_snapshots
    (out / "recovery.md").write_text(f"""# Recovery: what it costs

Measured by `make bench-recovery` (scripts/bench/recovery_bench.py) on this machine
(2 cores; load average {load:.2f} at the start). Figures from one run; ratios are within it.

## Interrupt checks in cell loops

A 10^8-iteration loop `for i in 0..<100_000_000 {{ n &+= i }}` (cells compile at `-Onone`),
median of 3 `%time` runs, with the checks the kernel inserts and without them
(`BENCHBOOK_LOOP_CHECKS=0`):

| where the loop is | with checks | without | ratio |
|---|---|---|---|
| in a function (trapping check) | {loops['in_function']['checks']:.3f} s | {loops['in_function']['no_checks']:.3f} s | {loops['in_function']['ratio']:.2f} |
| top level of a cell (throwing check) | {loops['top_level']['checks']:.3f} s | {loops['top_level']['no_checks']:.3f} s | {loops['top_level']['ratio']:.2f} |
| a loop with work: sum of squares of a 10^7 array, in a function | {loops['sum_of_squares_1e7']['checks']:.3f} s | {loops['sum_of_squares_1e7']['no_checks']:.3f} s | {loops['sum_of_squares_1e7']['ratio']:.2f} |

A bare `n &+= i` at `-Onone` costs about 5 ns an iteration and the check (a call into the
notebook library that reads the interrupt flag) about as much again; a loop that does work
pays the same few nanoseconds, a much smaller share. Reading the flag inline instead of
calling was tried and is slower: Swift checks exclusive access on every read of a global
at `-Onone`.

## Line tables for trap locations

A trivial cell's p50 (30 cells, after a warm-up cell) with `-gline-tables-only` and without
(`BENCHBOOK_LINE_TABLES=0`), two alternating kernels each: with {line_tables[0]} / {line_tables[2]} ms,
without {line_tables[1]} / {line_tables[3]} ms.

## Snapshots on notebook 03

After running all of notebook 03 (the Fashion-MNIST model, 10,000 rows of logits, four
evaluations of 10,000 images):

| figure | value |
|---|---|
| notebook run time, snapshots on / off | {s['notebook_seconds']} s / {n['notebook_seconds']} s |
| cell host resident memory (RSS) | {s['host_rss_mib']} MiB |
| cell host proportional share (PSS) | {s['host_pss_mib']} MiB |
| snapshot proportional share (PSS), {s['snapshots_alive']} alive | {s['snapshot_pss_mib']} MiB |
| trivial cell p50 (30 cells), snapshots on / off | {s['trivial_cell_p50_ms']} ms / {n['trivial_cell_p50_ms']} ms |
| restore after a trap (as the kernel reports it) | {s['restore_ms']:.0f} ms |

PSS divides each shared page among the processes that map it, so the snapshot's PSS is
what it costs beyond the host: pages the host changed after the fork are the copy's alone.
""")
    progress(f"wrote {out / 'recovery.md'}")


if __name__ == "__main__":
    main()
