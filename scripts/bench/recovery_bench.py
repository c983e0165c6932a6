"""Measures what recovery costs (issue 13) and writes results/recovery.{json,md}.

- Loop checks: a 10^8-iteration `while` loop at -Onone (`%optimize off`), with the interrupt checks the kernel inserts
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

# A benchmark of compiles and cells keeps no cell cache (issue 34), or a second run would load
# every cell it measures from the first run's: set BENCHBOOK_CELL_CACHE to measure with one.
os.environ.setdefault("BENCHBOOK_CELL_CACHE", "off")

from benchbook_kit import ROOT  # noqa: E402
from benchbook_kit.kernel import children, kernel_pid, run_cell, text_of  # noqa: E402
from benchbook_kit.notebook_state import recovery_milliseconds, run_notebook, start_notebook_kernel  # noqa: E402

# `while` loops: a `while` body always holds an interrupt check (an innermost `for` over a
# bounded sequence holds none, so it would measure nothing). The kernels are set to
# `%optimize off`: every cell at -Onone, where a check's share of a bare iteration is largest.
LOOP_FUNCTION = ("func tight() -> Int {\n    var n = 0\n    var i = 0\n"
                 "    while i < 100_000_000 { n &+= i; i += 1 }\n    return n\n}")
LOOP_TOP_LEVEL = "%time\nvar n = 0\nvar i = 0\nwhile i < 100_000_000 { n &+= i; i += 1 }\nn"
# A loop with work in it: the sum of squares of a 10^7-element array.
LOOP_WORK = ("let values = (0..<10_000_000).map { Double($0 % 1000) / 1000 }\n"
             "func sumOfSquares() -> Double {\n    var total = 0.0\n    var k = 0\n"
             "    while k < values.count { total += values[k] * values[k]; k += 1 }\n    return total\n}")


def progress(text):
    print(text, file=sys.stderr, flush=True)


def wall_seconds(stdout):
    match = re.search(r"Wall time: ([0-9.]+) (ns|µs|ms|s)\b", stdout)
    assert match, stdout
    scale = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}[match.group(2)]
    return float(match.group(1)) * scale


def loop_costs():
    """Medians of 5 rounds; each round times every loop in a kernel with the checks and in
    one without, one after the other, so both see the same load."""
    kernels = {checks: start_notebook_kernel({"BENCHBOOK_LOOP_CHECKS": "1" if checks else "0"}) for checks in (True, False)}
    try:
        for km, kc in kernels.values():
            assert run_cell(kc, "%optimize off")[0]["status"] == "ok"
            assert run_cell(kc, LOOP_FUNCTION)[0]["status"] == "ok"
            assert run_cell(kc, LOOP_WORK)[0]["status"] == "ok"
        cells = {"in_function": "%time tight()", "top_level": LOOP_TOP_LEVEL, "sum_of_squares_1e7": "%time sumOfSquares()"}
        times = {(checks, name): [] for checks in kernels for name in cells}
        for turn in range(5):
            for name, code in cells.items():
                for checks, (km, kc) in kernels.items():
                    reply, outputs = run_cell(kc, code)
                    assert reply["status"] == "ok", reply
                    times[(checks, name)].append(wall_seconds(text_of(outputs)))
            progress(f"  loop checks, round {turn + 1}/5: " + ", ".join(
                f"{name} {times[(True, name)][-1]:.3f} / {times[(False, name)][-1]:.3f} s" for name in cells))
        return {name: {"checks": round(statistics.median(times[(True, name)]), 3),
                       "no_checks": round(statistics.median(times[(False, name)]), 3),
                       "ratio": round(statistics.median(times[(True, name)]) / statistics.median(times[(False, name)]), 2)}
                for name in cells}
    finally:
        for km, kc in kernels.values():
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
    km, kc = start_notebook_kernel({"BENCHBOOK_SNAPSHOTS": "1" if snapshots else "0"})
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
    km, kc = start_notebook_kernel(extra_env)
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
    loops = loop_costs()
    line_tables = [trivial_cell_p50({}), trivial_cell_p50({"BENCHBOOK_LINE_TABLES": "0"})]
    line_tables += [trivial_cell_p50({}), trivial_cell_p50({"BENCHBOOK_LINE_TABLES": "0"})]
    progress(f"  trivial cell p50 with / without line tables, twice: {line_tables}")
    with_snapshots = notebook_03(True)
    without_snapshots = notebook_03(False)
    result = {
        "load_average_at_start": round(load, 2),
        "loop_seconds": loops,
        "notebook_03": {"snapshots": with_snapshots, "no_snapshots": without_snapshots},
        "trivial_cell_p50_ms_line_tables": {"with": [line_tables[0], line_tables[2]], "without": [line_tables[1], line_tables[3]]},
    }
    out = ROOT / "results"
    (out / "recovery.json").write_text(json.dumps(result, indent=2) + "\n")
    s, n = with_snapshots, without_snapshots
    (out / "recovery.md").write_text(f"""# Recovery: what it costs

Measured by `make bench-recovery` (scripts/bench/recovery_bench.py) on this machine
(2 cores; load average {load:.2f} at the start). Figures from one run; ratios are within it.

## Interrupt checks in cell loops

A 10^8-iteration loop `while i < 100_000_000 {{ n &+= i; i += 1 }}`, median of 5 `%time`
runs, with the checks the kernel inserts and without them (`BENCHBOOK_LOOP_CHECKS=0`), the
two kernels taking turns so that both see the same load. A `while` body always holds a
check; an innermost `for` over a bounded sequence holds none, so it costs nothing. Both
kernels are set to `%optimize off` (every cell at `-Onone`), where a check's share of a bare
iteration is largest; at the kernel's default (`%optimize auto`) a cell with a loop is
compiled with `-O`, and `results/normalize-loop.md` measures that case against `swiftc -O`.

| where the loop is | with checks | without | ratio |
|---|---|---|---|
| in a function (trapping check) | {loops['in_function']['checks']:.3f} s | {loops['in_function']['no_checks']:.3f} s | {loops['in_function']['ratio']:.2f} |
| top level of a cell (throwing check) | {loops['top_level']['checks']:.3f} s | {loops['top_level']['no_checks']:.3f} s | {loops['top_level']['ratio']:.2f} |
| a loop with work: sum of squares of a 10^7 array, in a function | {loops['sum_of_squares_1e7']['checks']:.3f} s | {loops['sum_of_squares_1e7']['no_checks']:.3f} s | {loops['sum_of_squares_1e7']['ratio']:.2f} |

The check is a call into the notebook library that reads the interrupt flag. Per
iteration, in the function: {loops['in_function']['checks'] * 10:.1f} ns with it against {loops['in_function']['no_checks'] * 10:.1f} ns
without (the bare loop is the worst case: the check is most of its work); in the loop with
work: {loops['sum_of_squares_1e7']['checks'] * 100:.1f} ns against {loops['sum_of_squares_1e7']['no_checks'] * 100:.1f} ns. These are medians of one run at the load above; on a
busy machine the rounds spread widely, so read the ratios as that run's, not as constants.
Reading the flag inline instead of calling was tried and is slower: Swift checks exclusive
access on every read of a global at `-Onone`.

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
