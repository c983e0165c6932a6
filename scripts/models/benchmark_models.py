"""Benchmark: Swift `Model.run` median latency against each runtime's own loop.

libtorch (.pt, .ptl): the baseline is a C++ loop calling forward in the same process
(CTorchShim's bbt_time_forward), measured by `benchbook-models bench`. LiteRT (.tflite): the
baseline is the Python ai_edge_litert Interpreter's invoke(), timed here. Swift and baseline
alternate in rounds so that load from other processes hits both alike; each figure is the
median over rounds of per-round medians. Also compares MobileNetV2 float with int8 per runtime.

MobileNetV2 files have UNTRAINED weights (latency does not depend on the weights).

    .venv/bin/python scripts/models/benchmark_models.py --bin .build/release/benchbook-models --out results
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
from ai_edge_litert.interpreter import Interpreter


def sample_input(detail):
    shape = [max(1, int(d)) for d in detail["shape"]]
    count = int(np.prod(shape))
    index = np.arange(count, dtype=np.int64)
    if detail["dtype"] == np.int8:
        return ((index * 7) & 0xFF).astype(np.uint8).view(np.int8).reshape(shape)
    if detail["dtype"] == np.uint8:
        return ((index * 7) & 0xFF).astype(np.uint8).reshape(shape)
    return (((index * 7) % 256) / 255).astype(np.float32).reshape(shape)


def python_litert(path, threads, runs, warmup):
    """Times Interpreter.invoke() alone; returns the per-run seconds."""
    interpreter = Interpreter(model_path=path, num_threads=threads)
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    interpreter.set_tensor(detail["index"], sample_input(detail))
    for _ in range(warmup):
        interpreter.invoke()
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        interpreter.invoke()
        times.append((time.perf_counter_ns() - start) / 1e9)
    return times


def swift_bench(binary, models, threads, runs, warmup):
    command = [binary, "bench", "--threads", ",".join(map(str, threads)), "--runs", str(runs),
               "--warmup", str(warmup), "--rounds", "1"] + models
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", default="results")
    parser.add_argument("--models", default="notebooks/models")
    parser.add_argument("--generated", default="models/generated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    groups = [
        ([os.path.join(args.models, f) for f in ["fashion_cnn.pt", "fashion_cnn.ptl", "fashion_cnn_int8.pt",
                                                  "fashion_cnn_int8.ptl", "fashion_cnn.tflite", "fashion_cnn_int8.tflite"]],
         200, 20),
        ([os.path.join(args.generated, f) for f in ["mobilenet_v2.pt", "mobilenet_v2.ptl", "mobilenet_v2_int8.pt",
                                                     "mobilenet_v2_int8.ptl", "mobilenet_v2.tflite", "mobilenet_v2_int8.tflite"]],
         15, 3),
    ]
    load_before = os.getloadavg()
    samples = {}  # (model, threads) -> {"swift": [...], "baseline": [...], "paired": [...], "format": ...}
    for round_index in range(args.rounds):
        for models, runs, warmup in groups:
            models = [m for m in models if os.path.exists(m)]
            if not models:
                continue
            for record in swift_bench(args.bin, models, threads, runs, warmup):
                entry = samples.setdefault((record["model"], record["threads"]),
                                           {"swift": [], "baseline": [], "paired": [], "format": record["format"]})
                entry["swift"] += record["swift_samples_s"]
                if "native_samples_s" in record:
                    entry["baseline"] += record["native_samples_s"]
                    entry["paired"] += [a / b for a, b in zip(record["swift_samples_s"], record["native_samples_s"])]
            for model in models:
                if model.endswith(".tflite"):
                    for t in threads:
                        samples[(model, t)]["baseline"] += python_litert(model, t, runs, warmup)
        print(f"round {round_index + 1}/{args.rounds} done", file=sys.stderr)
    load_after = os.getloadavg()

    rows, records = [], []
    for (model, t), entry in sorted(samples.items()):
        swift = statistics.median(entry["swift"])
        baseline = statistics.median(entry["baseline"])
        ratio = swift / baseline
        min_ratio = min(entry["swift"]) / min(entry["baseline"])
        paired = statistics.median(entry["paired"]) if entry["paired"] else None
        baseline_name = ("Python LiteRT Interpreter.invoke (separate process, alternating rounds)"
                         if model.endswith(".tflite") else "C++ loop over libtorch forward (alternating runs)")
        records.append({"model": model, "format": entry["format"], "threads": t, "swift_median_ms": swift * 1e3,
                        "baseline": baseline_name, "baseline_median_ms": baseline * 1e3, "ratio": ratio,
                        "min_ratio": min_ratio, "paired_ratio_median": paired, "samples": len(entry["swift"])})
        paired_text = f"{paired:.3f}" if paired else "—"
        rows.append(f"| `{os.path.basename(model)}` | {entry['format']} | {t} | {swift * 1e3:.3f} | "
                    f"{baseline * 1e3:.3f} | **{ratio:.3f}** | {paired_text} | {min_ratio:.3f} | {len(entry['swift'])} | {baseline_name} |")

    def median_of(name, t):
        for r in records:
            if os.path.basename(r["model"]) == name and r["threads"] == t:
                return r["swift_median_ms"]
        return None

    compare = []
    for runtime, float_name, int8_name in [("TorchScript", "mobilenet_v2.pt", "mobilenet_v2_int8.pt"),
                                           ("PyTorch Lite", "mobilenet_v2.ptl", "mobilenet_v2_int8.ptl"),
                                           ("TensorFlow Lite", "mobilenet_v2.tflite", "mobilenet_v2_int8.tflite")]:
        for t in threads:
            f, q = median_of(float_name, t), median_of(int8_name, t)
            if f and q:
                compare.append(f"| {runtime} | {t} | {f:.2f} | {q:.2f} | {f / q:.2f}x |")

    os.makedirs(args.out, exist_ok=True)
    command = " ".join([os.path.relpath(sys.executable) if sys.executable.startswith(os.getcwd()) else sys.executable]
                       + sys.argv)
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}"
    text = f"""# Model latency: Swift `Model.run` against each runtime's own loop

Median latency per call (batch 1), in milliseconds. Swift: `Model.run` from
`benchbook-models bench` (release build), including copying the input in and the output out.
Baseline: libtorch — a C++ loop calling `forward` on the same module in the same process;
LiteRT — the Python `ai_edge_litert` `Interpreter.invoke()` (XNNPACK, same thread count).
libtorch: Swift and the C++ loop alternate run by run in one process; LiteRT: the Swift
process and the Python interpreter alternate in {args.rounds} rounds. Ratio = median Swift /
median baseline (target ≤ 1.02); also the median of per-run paired ratios (libtorch) and the
ratio of the minima, which is the least disturbed by other processes.

**MobileNetV2 files have untrained (random) weights**: pretrained weights cannot be downloaded
here; latency does not depend on the weights.

Machine: {machine}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after (the
machine is shared with other builds, so absolute figures are noisy; ratios come from
alternating rounds). Runtimes: libtorch 1.13 (Debian, quantised engine qnnpack),
LiteRT `ai-edge-litert` 2.3.0.

| model | format | threads | Swift median (ms) | baseline median (ms) | ratio | paired ratio | min ratio | runs | baseline |
|---|---|---|---|---|---|---|---|---|---|
{chr(10).join(rows)}

## MobileNetV2 (untrained weights), float32 vs int8, Swift `Model.run` median

| runtime | threads | float32 (ms) | int8 (ms) | float / int8 |
|---|---|---|---|---|
{chr(10).join(compare)}

Reproduce: `{command}` (or `make models-bench`).
"""
    # Keep the threads before/after section that scripts/models/thread_benchmark.py writes.
    report = os.path.join(args.out, "model-benchmark.md")
    previous = open(report).read() if os.path.exists(report) else ""
    begin, end = "<!-- threads before/after:", "<!-- end threads before/after -->"
    if begin in previous and end in previous:
        text += "\n" + previous[previous.index(begin):previous.index(end) + len(end)] + "\n"
    with open(report, "w") as f:
        f.write(text)
    with open(os.path.join(args.out, "model-benchmark.json"), "w") as f:
        json.dump({"machine": machine, "load_before": load_before, "load_after": load_after,
                   "results": records}, f, indent=1)
    print(text)


if __name__ == "__main__":
    main()
