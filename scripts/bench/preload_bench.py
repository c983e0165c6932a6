"""What loading the model runtimes in the background costs and saves (issue 35), written to
results/model-preload.{json,md}.

    .venv/bin/python scripts/bench/preload_bench.py        (or: make bench-preload)

The cell host loads libtorch and LiteRT on a background thread once it is ready
(`RuntimePreload`); `BENCHBOOK_PRELOAD=0` turns that off. For each of `--kernels` fresh
kernels of the installed "swift" kernelspec, with the preload on and off in turn (so both see
the same load): the time `start_new_kernel` takes, then, `--pause` seconds later (a user
reading the notebook's first lines), the first cell `let m1 = try Model(contentsOf:
"notebooks/models/fashion_cnn.ptl")` and the same line again (`m2`), each from
`execute_request` to its reply; and the cell host's resident memory (RSS and PSS, from
/proc) after the second. `--pause 0` runs the model cell as soon as the kernel answers.
Medians over the kernels; the ratio first/second is taken per kernel, then its median.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "python"))

from jupyter_client.manager import start_new_kernel  # noqa: E402
from kernel_helpers import run_cell  # noqa: E402
from test_kernel_seam import children, kernel_pid  # noqa: E402

MODEL = ROOT / "notebooks" / "models" / "fashion_cnn.ptl"


def memory_mib(pid):
    """(RSS, PSS) of a process in MiB."""
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            name, _, rest = line.partition(":")
            if name in ("Rss", "Pss"):
                values[name] = int(rest.split()[0]) / 1024
    return round(values["Rss"], 1), round(values["Pss"], 1)


def host_memory(km):
    hosts = [pid for pid, name in children(kernel_pid(km)) if name == "benchbook-cell-host"]
    return memory_mib(hosts[0]) if hosts else (None, None)


def trivial_first_cell(preload):
    """Seconds from a fresh kernel's answer to the reply of its first cell `let x = 1`."""
    env = dict(os.environ, BENCHBOOK_PRELOAD="1" if preload else "0")
    km, kc = start_new_kernel(kernel_name="swift", startup_timeout=120, env=env)
    try:
        begun = time.perf_counter()
        reply, _ = run_cell(kc, "let x = 1", timeout=300)
        assert reply["status"] == "ok", reply
        return round(time.perf_counter() - begun, 3)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def one_kernel(preload, pause):
    env = dict(os.environ, BENCHBOOK_PRELOAD="1" if preload else "0")
    started = time.perf_counter()
    km, kc = start_new_kernel(kernel_name="swift", startup_timeout=120, env=env)
    start_seconds = time.perf_counter() - started
    try:
        time.sleep(pause)
        before = host_memory(km)
        cells = []
        for name in ("m1", "m2"):
            begun = time.perf_counter()
            reply, _ = run_cell(kc, f'let {name} = try Model(contentsOf: "{MODEL}")', timeout=300)
            cells.append(time.perf_counter() - begun)
            if reply["status"] != "ok":
                raise SystemExit(f"model cell failed: {reply.get('ename')}: {reply.get('evalue')}")
        after = host_memory(km)
        return {"start_s": round(start_seconds, 3), "first_s": round(cells[0], 3), "second_s": round(cells[1], 3),
                "ratio": round(cells[0] / cells[1], 2), "host_rss_mib_before_model": before[0],
                "host_pss_mib_before_model": before[1], "host_rss_mib": after[0], "host_pss_mib": after[1]}
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=5)
    parser.add_argument("--pause", type=float, nargs="+", default=[2.0, 0.0])
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    runs = {}
    for pause in args.pause:
        for preload in (True, False):
            runs[(pause, preload)] = []
        for index in range(args.kernels):
            for preload in (True, False):
                run = one_kernel(preload, pause)
                runs[(pause, preload)].append(run)
                print(f"pause {pause} s, preload {'on' if preload else 'off'}, kernel {index + 1}: {run}", file=sys.stderr, flush=True)

    trivial = {True: [], False: []}
    for index in range(args.kernels):
        for preload in (True, False):
            trivial[preload].append(trivial_first_cell(preload))
    print(f"first cell `let x = 1` right after start: {trivial}", file=sys.stderr, flush=True)

    def median(pause, preload, key):
        values = [run[key] for run in runs[(pause, preload)] if run[key] is not None]
        return round(statistics.median(values), 3)

    keys = ["start_s", "first_s", "second_s", "ratio", "host_rss_mib_before_model", "host_pss_mib_before_model",
            "host_rss_mib", "host_pss_mib"]
    summary = {f"pause {pause} s, preload {'on' if preload else 'off'}": {key: median(pause, preload, key) for key in keys}
               for pause, preload in runs}
    result = {
        "command": "make bench-preload",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "load_average_at_start": round(load, 2)},
        "model": str(MODEL.relative_to(ROOT)),
        "kernels": args.kernels,
        "medians": summary,
        "trivial_first_cell_s": {"preload on": trivial[True], "preload off": trivial[False]},
        "runs": {f"pause {pause} s, preload {'on' if preload else 'off'}": values for (pause, preload), values in runs.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "model-preload.json").write_text(json.dumps(result, indent=2) + "\n")
    rows = "\n".join(f"| {name} | {m['start_s']:.3f} | {m['first_s']:.3f} | {m['second_s']:.3f} | {m['ratio']:.2f} | "
                     f"{m['host_rss_mib_before_model']:.0f} / {m['host_pss_mib_before_model']:.0f} | {m['host_rss_mib']:.0f} / {m['host_pss_mib']:.0f} |"
                     for name, m in summary.items())
    on, off = statistics.median(trivial[True]), statistics.median(trivial[False])
    (args.out / "model-preload.md").write_text(f"""# The first model of a lesson: loading the runtimes in the background

`make bench-preload` (scripts/bench/preload_bench.py; {result['date']}, {result['machine']['processor']},
{result['machine']['cores']} cores, load average {load:.2f} at the start, shared with other work). {args.kernels}
fresh kernels per row, rows taking turns kernel by kernel so they share the load. Each
kernel: `start_new_kernel` (start), then after the pause the first cell `let m1 = try
Model(contentsOf: "{result['model']}")` and the same line again (`m2`), each from
`execute_request` to its reply (a cell's compile included); the cell host's memory after
both. Medians over the kernels; first/second is taken per kernel, then its median.
"preload off" is `BENCHBOOK_PRELOAD=0`, the kernel before this change.

| kernel | start (s) | first model cell (s) | second (s) | first / second | host RSS / PSS before the model (MiB) | after both (MiB) |
|---|---|---|---|---|---|---|
{rows}

What it costs: the host's memory before any model is loaded (the columns "before the
model" of the pause 2 s rows: libtorch and LiteRT mapped and initialised, in every kernel,
also one that never loads a model; snapshots share it copy-on-write), and a first cell that
comes while the loading runs: `let x = 1` sent as soon as a fresh kernel answers took
{on:.3f} s with the preload and {off:.3f} s without (medians of {args.kernels} kernels each).

The pause is the time between the kernel answering and the model cell being sent: 2 s is a
user reading the first lines of a lesson; 0 s is "Run All" with the model cell first, where
the cell waits for whatever of the loading is still to do (a fork of the host, its snapshot
or a model file's check, waits for the loading to end).
""")
    print(f"wrote {args.out / 'model-preload.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
