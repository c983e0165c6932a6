"""PyTorch Lite at 1 and 2 threads: libtorch's own thread handling (before) against
Benchbook's (after), with the cause shown by libgomp's wait settings.

    PYTHONPATH=python .venv/bin/python scripts/models/thread_benchmark.py --bin .build/release/benchbook-models

Before: Debian's /usr/bin/python3 (torch 1.13, the same libtorch as the Swift library) loads
the file and calls torch.set_num_threads(N), which sizes both of libtorch's pools: OpenMP
(libgomp, ATen operators) and the pthreadpool (XNNPACK's prepacked operators that
optimize_for_mobile inserts, QNNPACK's quantised ones). Each configuration runs in a fresh
process; also with GOMP_SPINCOUNT=0 and OMP_WAIT_POLICY=PASSIVE, which libgomp reads at start:
if the slowdown is libgomp's idle workers spinning on the cores the pthreadpool needs, these
remove it.
After: `benchbook-models bench` (Swift `Model.run`): the library runs such a model with
OpenMP at 1 thread and the pthreadpool at N (CTorchShim apply_threads).

The configurations alternate in rounds so that other load on the machine hits all alike; the
figure per configuration is the median over every run of every round. Writes the section
between the markers in results/model-benchmark.md (benchmark_models.py keeps it) and
results/model-threads-before-after.json.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

from benchbook_kit import ROOT

SYSTEM_PYTHON = "/usr/bin/python3"
BEGIN = "<!-- threads before/after: scripts/models/thread_benchmark.py -->"
END = "<!-- end threads before/after -->"
FILES = ["efficientnet_lite0.ptl", "efficientnet_lite0_int8.ptl", "mobilenet_v2.ptl", "efficientnet_lite0.pt"]
SETTINGS = [("libtorch default", {}), ("GOMP_SPINCOUNT=0", {"GOMP_SPINCOUNT": "0"}),
            ("OMP_WAIT_POLICY=PASSIVE", {"OMP_WAIT_POLICY": "PASSIVE"})]

PYTHON_RUN = r"""
import json, sys, time, torch
from torch.jit.mobile import _load_for_lite_interpreter
path, threads, runs, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
torch.backends.quantized.engine = "qnnpack"
torch.set_num_threads(threads)
model = _load_for_lite_interpreter(path) if path.endswith(".ptl") else torch.jit.load(path)
x = (torch.arange(3 * 224 * 224, dtype=torch.float32).reshape(1, 3, 224, 224) * 7 % 256) / 255
times = []
with torch.inference_mode():
    for i in range(warmup + runs):
        start = time.perf_counter_ns()
        model(x) if path.endswith(".ptl") else model.forward(x)
        if i >= warmup:
            times.append((time.perf_counter_ns() - start) / 1e9)
print(json.dumps(times))
"""


def python_times(path, threads, runs, warmup, env_extra):
    env = dict(os.environ, **env_extra)
    out = subprocess.run([SYSTEM_PYTHON, "-c", PYTHON_RUN, path, str(threads), str(runs), str(warmup)],
                         check=True, capture_output=True, text=True, env=env, timeout=600).stdout
    return json.loads(out.strip().splitlines()[-1])


def swift_times(binary, path, threads, runs, warmup):
    out = subprocess.run([binary, "bench", "--threads", str(threads), "--runs", str(runs), "--warmup", str(warmup),
                          "--rounds", "1", path], check=True, capture_output=True, text=True, timeout=600).stdout
    record = [json.loads(line) for line in out.splitlines() if line.startswith("{")][0]
    return record["swift_samples_s"]


def measure(args):
    """Runs every configuration; returns the default thread count, the load averages and the records."""
    default_threads = subprocess.run([SYSTEM_PYTHON, "-c", "import torch; print(torch.get_num_threads())"],
                                     check=True, capture_output=True, text=True).stdout.strip()
    load_before = os.getloadavg()
    samples = {}  # (file, setting, threads) -> [seconds]
    for round_index in range(args.rounds):
        for file in args.files.split(","):
            path = os.path.join(args.generated, file)
            slow_file = file.endswith(".pt")
            runs = max(3, args.runs // 2) if slow_file else args.runs
            for threads in (1, 2):
                for name, env in SETTINGS:
                    if slow_file and env:
                        continue  # the wait settings matter for the Lite files only
                    samples.setdefault((file, name, threads), []).extend(python_times(path, threads, runs, 2, env))
                samples.setdefault((file, "Benchbook", threads), []).extend(
                    swift_times(args.bin, path, threads, runs, 2))
        print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    load_after = os.getloadavg()

    columns = [name for name, _ in SETTINGS] + ["Benchbook"]
    records = []
    for file in args.files.split(","):
        for name in columns:
            one, two = samples.get((file, name, 1)), samples.get((file, name, 2))
            if not one or not two:
                continue
            m1, m2 = statistics.median(one) * 1e3, statistics.median(two) * 1e3
            records.append({"file": file, "setting": name, "median_ms_1_thread": m1, "median_ms_2_threads": m2,
                            "runs_per_thread_count": len(one), "samples_s": {"1": one, "2": two}})
    return default_threads, load_before, load_after, records


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--generated", default=os.path.join(ROOT, "models", "generated"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--render-only", action="store_true",
                        help="rewrite the report section from results/model-threads-before-after.json")
    parser.add_argument("--files", default=",".join(FILES), help="comma-separated files in --generated")
    args = parser.parse_args()

    record_path = os.path.join(args.out, "model-threads-before-after.json")
    if args.render_only:
        # Re-render the report section from the last measurement, without measuring again.
        with open(record_path) as f:
            saved = json.load(f)
        default_threads, load_before, load_after = saved.get("default_threads", "?"), saved["load_before"], saved["load_after"]
        rounds, records = saved.get("rounds", args.rounds), saved["results"]
        arguments = saved.get("arguments", "")
    else:
        default_threads, load_before, load_after, records = measure(args)
        rounds = args.rounds
        arguments = " ".join(a for a in sys.argv[1:] if not a.startswith("/tmp"))
    control = any(r["file"].endswith(".pt") for r in records)
    rows = []
    for r in records:
        m1, m2, name = r["median_ms_1_thread"], r["median_ms_2_threads"], r["setting"]
        stage = "after (Swift `Model.run`)" if name == "Benchbook" else (
            "before (Python, torch.set_num_threads)" if name == "libtorch default" else f"before, with {name}")
        rows.append(f"| `{r['file']}` | {stage} | {m1:.1f} | {m2:.1f} | **{m1 / m2:.2f}x** | {r['runs_per_thread_count']} |")
    section = f"""{BEGIN}
## PyTorch Lite at 2 threads: before and after the library's thread rule

Median latency per call (batch 1, 224x224) in ms; 1 / 2 above 1 means 2 threads are faster.
**Before**: libtorch's own handling — Debian's torch 1.13 in Python (the same libtorch as the
Swift library), `torch.set_num_threads(N)`, which sizes both the OpenMP pool (ATen operators)
and the pthreadpool (XNNPACK/QNNPACK operators); also with libgomp's wait settings, which it
reads at process start. **After**: Swift `Model.run` (`benchbook-models bench`), which runs a
model whose operators use the pthreadpool with OpenMP at 1 thread and the pthreadpool at N.
Each configuration in a fresh process, alternating in {rounds} rounds; MobileNetV2 has
untrained weights (latency only).{" `efficientnet_lite0.pt` (TorchScript, ATen operators on OpenMP) is the control that the rule leaves alone." if control else ""}

| file | stage | 1 thread | 2 threads | 1 / 2 | runs each |
|---|---|---|---|---|---|
{chr(10).join(rows)}

Load average {load_before[0]:.2f} before, {load_after[0]:.2f} after (2 cores, shared with other
work: above 2, other processes competed for the cores, and a second thread that waits for its
partner at the end of every operator waits for a core another process holds; then 2 threads
lose to 1 whatever the thread rule). libtorch's default thread count on this machine, which
`Model` keeps unless told otherwise: {default_threads} (`torch.get_num_threads()`). Reproduce:
`PYTHONPATH=python .venv/bin/python scripts/models/thread_benchmark.py {arguments or "--bin .build/release/benchbook-models"}`.
{END}
"""
    report = os.path.join(args.out, "model-benchmark.md")
    text = open(report).read() if os.path.exists(report) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END) + 1:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(report, "w") as f:
        f.write(text)
    if not args.render_only:
        with open(record_path, "w") as f:
            json.dump({"default_threads": default_threads, "rounds": rounds, "arguments": arguments, "load_before": load_before,
                       "load_after": load_after, "results": records}, f, indent=1)
    print(section)


if __name__ == "__main__":
    main()
