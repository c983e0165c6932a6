"""What loading the model runtimes in the background costs and saves (issue 35), written to
results/model-preload.{json,md}.

    PYTHONPATH=python .venv/bin/python scripts/bench/preload_bench.py        (or: make bench-preload)

The cell host loads libtorch and LiteRT on a background thread once it is ready and warms
libtorch up on a small network (`RuntimePreload`); `BENCHBOOK_PRELOAD=libraries` only opens
the runtimes (the preload before the warm-up), `BENCHBOOK_PRELOAD=0` does nothing. Kernels of
the installed "swift" kernelspec, started in notebooks/ as a lesson is:

- first model cell: for each of `--kernels` fresh kernels per level (levels taking turns
  kernel by kernel, so they share the machine's load), the time `start_new_kernel` takes;
  then, `--pause` seconds later (a user reading the notebook's first lines; 0 is "Run All"),
  the lesson's first cell `let m1 = try Model(contentsOf: "models/fashion_cnn.ptl")` and the
  same line again (`m2`), each from `execute_request` to its reply (the cell's compile
  included); the cell host's RSS and PSS before the first. The same for the `.pt` and
  `.tflite` files at the first pause. Medians over the kernels; first/second is taken per
  kernel, then its median.
- inside the host: in one cell of a fresh kernel (`--pause` later), the first
  `Model(contentsOf:)` of the file and the second, timed by the cell itself (no compile).
- a trivial first cell: `let x = 1` sent the moment a fresh kernel answers.
- memory side by side: `--side-by-side` kernels started together per level, each past its
  preload; every process of each kernel (kernel, cell host, its snapshot, helpers) by PSS,
  the cell hosts' PSS split into file-backed and anonymous pages.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

# A benchmark of compiles and cells keeps no cell cache (issue 34), or a second run would load
# every cell it measures from the first run's: set BENCHBOOK_CELL_CACHE to measure with one.
os.environ.setdefault("BENCHBOOK_CELL_CACHE", "off")

from jupyter_client.manager import start_new_kernel  # noqa: E402
from benchbook_kit import ROOT  # noqa: E402
from benchbook_kit.kernel import children, kernel_pid, run_cell  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
LEVELS = {"warm-up": "1", "libraries": "libraries", "off": "0"}


def memory_mib(pid):
    """Rss, Pss, Pss_Anon and Pss_File of a process in MiB (smaps_rollup)."""
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            name, _, rest = line.partition(":")
            if name in ("Rss", "Pss", "Pss_Anon", "Pss_File", "Pss_Shmem"):
                values[name] = round(int(rest.split()[0]) / 1024, 1)
    return values


def host_pid(km):
    hosts = [pid for pid, name in children(kernel_pid(km)) if name == "benchbook-cell-host"]
    return hosts[0] if hosts else None


def tree(pid):
    """pid and every process below it."""
    found, pending = [pid], [pid]
    while pending:
        for child, _ in children(pending.pop()):
            found.append(child)
            pending.append(child)
    return found


def start(level):
    env = dict(os.environ, BENCHBOOK_PRELOAD=LEVELS[level])
    return start_new_kernel(kernel_name="swift", startup_timeout=120, env=env, cwd=str(NOTEBOOKS))


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def one_kernel(level, pause, model):
    started = time.perf_counter()
    km, kc = start(level)
    start_seconds = time.perf_counter() - started
    try:
        time.sleep(pause)
        before = memory_mib(host_pid(km))
        cells = []
        for name in ("m1", "m2"):
            begun = time.perf_counter()
            reply, _ = run_cell(kc, f'let {name} = try Model(contentsOf: "models/{model}")', timeout=300)
            cells.append(time.perf_counter() - begun)
            if reply["status"] != "ok":
                raise SystemExit(f"model cell failed: {reply.get('ename')}: {reply.get('evalue')}")
        return {"start_s": round(start_seconds, 3), "first_s": round(cells[0], 3), "second_s": round(cells[1], 3),
                "ratio": round(cells[0] / cells[1], 2), "host_rss_mib_before_model": before["Rss"],
                "host_pss_mib_before_model": before["Pss"]}
    finally:
        stop(km, kc)


def in_host(level, pause, model):
    """Milliseconds of the first and the second Model(contentsOf:) of a fresh kernel, timed in one cell."""
    km, kc = start(level)
    try:
        time.sleep(pause)
        code = ("let clock = ContinuousClock()\n"
                f'let first = clock.measure {{ _ = try! Model(contentsOf: "models/{model}") }}\n'
                f'let second = clock.measure {{ _ = try! Model(contentsOf: "models/{model}") }}\n'
                'print(first / .milliseconds(1), second / .milliseconds(1))')
        reply, outputs = run_cell(kc, code, timeout=300)
        assert reply["status"] == "ok", reply
        text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")
        first, second = (float(value) for value in text.split())
        return {"first_ms": round(first, 1), "second_ms": round(second, 1), "ratio": round(first / second, 2)}
    finally:
        stop(km, kc)


def trivial_first_cell(level):
    """Seconds from a fresh kernel's answer to the reply of its first cell `let x = 1`."""
    km, kc = start(level)
    try:
        begun = time.perf_counter()
        reply, _ = run_cell(kc, "let x = 1", timeout=300)
        assert reply["status"] == "ok", reply
        return round(time.perf_counter() - begun, 3)
    finally:
        stop(km, kc)


def side_by_side(level, count):
    """count kernels at once, each past its preload (two cells: the first one's snapshot
    waits for the preload), then the PSS of every process of each."""
    kernels = [start(level) for _ in range(count)]
    try:
        for km, kc in kernels:
            for code in ("let ready = 1", "let steady = 2"):
                reply, _ = run_cell(kc, code, timeout=300)
                assert reply["status"] == "ok", reply
        time.sleep(2)   # released snapshots exit and are reaped
        hosts = [memory_mib(host_pid(km)) for km, _ in kernels]
        everything = [memory_mib(pid) for km, _ in kernels for pid in tree(kernel_pid(km))]
        return {"kernels": count,
                "all_processes_pss_mib": round(sum(m["Pss"] for m in everything), 1),
                "all_processes_pss_anon_mib": round(sum(m["Pss_Anon"] for m in everything), 1),
                "all_processes_pss_file_mib": round(sum(m["Pss_File"] for m in everything), 1),
                "hosts_pss_mib": round(sum(m["Pss"] for m in hosts), 1),
                "hosts_pss_file_mib": round(sum(m["Pss_File"] for m in hosts), 1),
                "hosts_pss_anon_mib": round(sum(m["Pss_Anon"] for m in hosts), 1),
                "hosts_rss_mib": round(sum(m["Rss"] for m in hosts), 1),
                "processes": len(everything)}
    finally:
        for km, kc in kernels:
            stop(km, kc)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=5)
    parser.add_argument("--pause", type=float, nargs="+", default=[2.0, 0.0])
    parser.add_argument("--side-by-side", type=int, default=4)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    began = time.time()

    cases = [("fashion_cnn.ptl", pause) for pause in args.pause]
    cases += [(model, args.pause[0]) for model in ("fashion_cnn.pt", "fashion_cnn.tflite")]
    runs = {}
    for model, pause in cases:
        for level in LEVELS:
            runs[(model, pause, level)] = []
        for index in range(args.kernels):
            for level in LEVELS:
                run = one_kernel(level, pause, model)
                runs[(model, pause, level)].append(run)
                print(f"{model}, pause {pause} s, {level}, kernel {index + 1}: {run}", file=sys.stderr, flush=True)

    inside = {}
    for model in ("fashion_cnn.ptl", "fashion_cnn.pt", "fashion_cnn.tflite"):
        for level in LEVELS:
            inside[(model, level)] = []
        for index in range(args.kernels):
            for level in LEVELS:
                inside[(model, level)].append(in_host(level, args.pause[0], model))
        print(f"{model} inside the host: {[(level, inside[(model, level)]) for level in LEVELS]}", file=sys.stderr, flush=True)

    trivial = {level: [] for level in LEVELS}
    for index in range(args.kernels):
        for level in LEVELS:
            trivial[level].append(trivial_first_cell(level))
    print(f"first cell `let x = 1` right after start: {trivial}", file=sys.stderr, flush=True)

    memory = {level: side_by_side(level, args.side_by_side) for level in LEVELS}
    print(f"side by side: {memory}", file=sys.stderr, flush=True)
    load_end = os.getloadavg()[0]

    def median(key, values):
        return round(statistics.median(run[key] for run in values), 3)

    keys = ["start_s", "first_s", "second_s", "ratio", "host_rss_mib_before_model", "host_pss_mib_before_model"]
    summary = {f"{model}, pause {pause} s, {level}": {key: median(key, values) for key in keys}
               for (model, pause, level), values in runs.items()}
    result = {
        "command": "make bench-preload",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(began)),
        "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "load_average_at_start": round(load, 2), "load_average_at_end": round(load_end, 2)},
        "kernels": args.kernels,
        "medians": summary,
        "in_host": {f"{model}, {level}": values for (model, level), values in inside.items()},
        "trivial_first_cell_s": trivial,
        "side_by_side": memory,
        "runs": {f"{model}, pause {pause} s, {level}": values for (model, pause, level), values in runs.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "model-preload.json").write_text(json.dumps(result, indent=2) + "\n")
    rows = "\n".join(f"| {name} | {m['start_s']:.3f} | {m['first_s']:.3f} | {m['second_s']:.3f} | {m['ratio']:.2f} | "
                     f"{m['host_rss_mib_before_model']:.0f} / {m['host_pss_mib_before_model']:.0f} |"
                     for name, m in summary.items())
    inside_rows = "\n".join(
        f"| {model}, {level} | {median('first_ms', values):.1f} | {median('second_ms', values):.1f} | {median('ratio', values):.2f} |"
        for (model, level), values in inside.items())
    trivial_row = " | ".join(f"{statistics.median(trivial[level]):.3f}" for level in LEVELS)
    off = memory["off"]
    memory_rows = "\n".join(
        f"| {level} | {m['all_processes_pss_mib']:.0f} ({m['processes']} processes) | "
        f"{m['all_processes_pss_file_mib']:.0f} / {m['all_processes_pss_anon_mib']:.0f} | "
        f"{(m['all_processes_pss_mib'] - off['all_processes_pss_mib']) / m['kernels']:.0f} "
        f"({(m['all_processes_pss_file_mib'] - off['all_processes_pss_file_mib']) / m['kernels']:.0f} / "
        f"{(m['all_processes_pss_anon_mib'] - off['all_processes_pss_anon_mib']) / m['kernels']:.0f}) | "
        f"{m['hosts_pss_mib']:.0f} | {m['hosts_rss_mib']:.0f} |"
        for level, m in memory.items())
    (args.out / "model-preload.md").write_text(f"""# The first model of a lesson: loading the runtimes in the background

`make bench-preload` (scripts/bench/preload_bench.py; {result['date']}, {result['machine']['processor']},
{result['machine']['cores']} cores, load average {load:.2f} at the start and {load_end:.2f} at the end, shared
with other work). Levels (`BENCHBOOK_PRELOAD`): "warm-up" (the default: libtorch and LiteRT
opened, then a small network loaded and run once as TorchScript and PyTorch Lite), "libraries"
(only opened: the preload before the warm-up), "off" (nothing before the first model).

## First and second model cell

{args.kernels} fresh kernels per row, started in notebooks/, levels taking turns kernel by kernel
so they share the load. Each kernel: `start_new_kernel` (start), then after the pause the cell
`let m1 = try Model(contentsOf: "models/<file>")` and the same line again (`m2`), each from
`execute_request` to its reply (a cell's compile included); the cell host's memory just before
the first. Medians over the kernels; first/second is taken per kernel, then its median.

| file, pause, level | start (s) | first model cell (s) | second (s) | first / second | host RSS / PSS before the model (MiB) |
|---|---|---|---|---|---|
{rows}

The pause is the time between the kernel answering and the model cell being sent: 2 s is a
user reading the first lines of a lesson; 0 s is "Run All" with the model cell first, where
the cell waits for whatever of the preload is still to do (a fork of the host, its snapshot
or a model file's check, waits for the preload to end).

Inside the host: one cell of a fresh kernel ({args.pause[0]:g} s after it answered) times the first
`Model(contentsOf: "models/<file>")` and the second itself (the file's check in a child
process and the load; no compile). Medians of {args.kernels} kernels; the ratio per kernel, then its median.

| file, level | first load (ms) | second (ms) | first / second |
|---|---|---|---|
{inside_rows}

A first cell that comes while the preload runs: `let x = 1` sent as soon as a fresh kernel
answers (medians of {args.kernels} kernels, s):

| warm-up | libraries | off |
|---|---|---|
| {trivial_row} |

## {args.side_by_side} kernels side by side

{args.side_by_side} kernels started together per level, each past its preload (two trivial cells),
no model loaded. PSS counts a page shared by n processes as 1/n in each, so the sums are what
the {args.side_by_side} kernels take from the machine's memory together.

| level | PSS of all their processes (MiB) | of which file-backed / anonymous | more than "off", per kernel (file / anonymous) | PSS of the {args.side_by_side} cell hosts | RSS of the {args.side_by_side} cell hosts |
|---|---|---|---|---|---|
{memory_rows}

File-backed pages (the libraries' code and read-only data, read from the page cache) are one
copy on the machine, whatever the number of kernels: their PSS is divided among every process
that maps them. Anonymous pages (what the dynamic loader writes while relocating the libraries,
and what libtorch's and LiteRT's initialisation and the warm-up allocate) belong to one kernel:
its cell host and that host's snapshot share them copy-on-write, no other kernel does.
""")
    print(f"wrote {args.out / 'model-preload.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
