"""What the release assert configuration costs in compile time (issue 48), written to
results/cell-compile-assert-config.{json,md}.

    PYTHONPATH=python .venv/bin/python scripts/bench/assert_config_compile_bench.py   (make bench-normalize runs it after the loops)

Two kernels of the installed "swift" kernelspec, started together: as it starts (optimised
cells with `-O`, the release assert configuration) and with the optimised cells' flags
before issue 48 (BENCHBOOK_CELL_FLAGS="-assert-config Debug"). Each runs, in turns, the
same cells: seed 000's normalisation function (normalize-seed.swift's second cell, -O
under `%optimize auto`) and a trivial cell (`let aN = N`, -Onone). A cell's time is
execute_request to its reply, which is mostly the compile; no cell cache. Medians and p90
per kernel and cell; the load average is recorded (the machine is shared).
"""
import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

os.environ.setdefault("BENCHBOOK_CELL_CACHE", "off")

from benchbook_kit import ROOT  # noqa: E402
from benchbook_kit.kernel import run_cell, start_kernel  # noqa: E402

KERNELS = {"-O (release asserts)": {}, "-O -assert-config Debug (before)": {"BENCHBOOK_CELL_FLAGS": "-assert-config Debug"}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=20)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args()
    seed = (ROOT / "scripts" / "bench" / "normalize-seed.swift").read_text().split("//% cell\n")
    setup, function = seed[1].strip("\n"), seed[2].strip("\n")
    load = os.getloadavg()[0]
    kernels = {name: start_kernel(env=env) for name, env in KERNELS.items()}
    times = {(name, cell): [] for name in KERNELS for cell in ("seed function", "trivial")}
    try:
        for _, kc in kernels.values():
            reply, _ = run_cell(kc, setup, timeout=300)
            assert reply["status"] == "ok", reply
        for index in range(args.cells):
            for name, (_, kc) in kernels.items():
                for cell, code in (("seed function", function + f"\nlet run{index} = {index}"), ("trivial", f"let a{index} = {index}")):
                    started = time.perf_counter()
                    reply, _ = run_cell(kc, code, timeout=300)
                    times[(name, cell)].append(time.perf_counter() - started)
                    assert reply["status"] == "ok", reply
    finally:
        for km, kc in kernels.values():
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    end_load = os.getloadavg()[0]

    def p90(values):
        return sorted(values)[int(0.9 * (len(values) - 1))]

    rows = {f"{name} | {cell}": {"median_ms": round(statistics.median(v) * 1000, 1), "p90_ms": round(p90(v) * 1000, 1)}
            for (name, cell), v in times.items()}
    result = {"command": "scripts/bench/assert_config_compile_bench.py", "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                          "load_average_at_start": round(load, 2), "load_average_at_end": round(end_load, 2)},
              "cells_each": args.cells, "rows": rows,
              "per_cell_ms": {f"{n} | {c}": [round(x * 1000, 1) for x in v] for (n, c), v in times.items()}}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cell-compile-assert-config.json").write_text(json.dumps(result, indent=2) + "\n")
    table = "\n".join(f"| {key.split(' | ')[0]} | {key.split(' | ')[1]} | {v['median_ms']} | {v['p90_ms']} |" for key, v in rows.items())
    (args.out / "cell-compile-assert-config.md").write_text(f"""# Compile time of a cell: release against debug assert configuration

`PYTHONPATH=python .venv/bin/python scripts/bench/assert_config_compile_bench.py` ({result['date']},
{result['machine']['processor']}, {result['machine']['cores']} cores, load average {load:.2f} at the start and
{end_load:.2f} at the end: the machine was shared, so absolute times are inflated; the two kernels
ran in turns, cell by cell, so they shared the load). {args.cells} cells of each kind per kernel,
execute_request to reply (compile, link, load and run), no cell cache.

- **seed function**: seed 000's normalisation function (`scripts/bench/normalize-seed.swift`,
  second cell), compiled with -O under `%optimize auto`.
- **trivial**: `let aN = N`, compiled with -Onone (the assert configuration does not apply).

| kernel | cell | median (ms) | p90 (ms) |
|---|---|---|---|
{table}
""")
    print((args.out / "cell-compile-assert-config.md").read_text())


if __name__ == "__main__":
    main()
