#!/usr/bin/env python3
"""Preprocessing benchmark: Benchbook (Swift) against Pillow + NumPy, in one run.

Pipelines (same work on both sides):
  1. 4032x3024 JPEG -> normalised 1x3x224x224 tensor: JPEG draft decode (DCT scaling),
     shorter side to 224 (bilinear), centre crop 224, ImageNet mean/std, NCHW.
  2. Fashion-MNIST 10k test set: read the gzip IDX files, then every 28x28 image to a
     [1, 1, 28, 28] float32 tensor in [0, 1].
  3. softmax + top-5 over 1000 classes (per call).
Writes results/preprocessing-benchmark.json and .md. Reproduce with `make bench-preprocessing`
or:
    .venv/bin/python scripts/images/bench_preprocessing.py --swift-bench .build/release/benchbook-preprocess-bench
"""
import argparse
import gzip
import json
import platform
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import PIL
from PIL import Image

MEAN = np.array([0.485, 0.456, 0.406], np.float32).reshape(3, 1, 1)
STD = np.array([0.229, 0.224, 0.225], np.float32).reshape(3, 1, 1)
FASHION = "/usr/share/datasets/fashion-mnist"


def make_photo(path):
    """A 12 MP photo-like JPEG (smooth shading plus sensor-like noise and edges)."""
    if path.exists():
        return
    rng = np.random.default_rng(12)
    y, x = np.mgrid[0:3024, 0:4032].astype(np.float32)
    base = np.stack([128 + 90 * np.sin(x / 400), 128 + 80 * np.cos(y / 300), 100 + 60 * np.sin((x + y) / 700)], -1)
    base[(x // 300 + y // 300) % 2 == 0] *= 0.7
    photo = np.clip(base + rng.normal(0, 10, base.shape), 0, 255).astype(np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(photo, "RGB").save(path, quality=90)


def pillow_photo_to_tensor(path):
    image = Image.open(path)
    image.draft("RGB", (224, 224))
    return pillow_postprocess(image.convert("RGB"))


def pillow_postprocess(image):
    w, h = image.size
    size = (224, int(224 * h / w)) if w <= h else (int(224 * w / h), 224)
    image = image.resize(size, Image.Resampling.BILINEAR)
    left, top = int(round((size[0] - 224) / 2.0)), int(round((size[1] - 224) / 2.0))
    image = image.crop((left, top, left + 224, top + 224))
    array = np.asarray(image, dtype=np.float32).transpose(2, 0, 1) / np.float32(255)
    return ((array - MEAN) / STD)[None]


def pillow_decode(path):
    image = Image.open(path)
    image.draft("RGB", (224, 224))
    image.load()
    return image


def fashion_load():
    with gzip.open(f"{FASHION}/t10k-images-idx3-ubyte.gz") as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 28, 28)
    with gzip.open(f"{FASHION}/t10k-labels-idx1-ubyte.gz") as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    return images, labels


def fashion_pipeline(images):
    checksum = 0.0
    for item in images:
        array = np.asarray(Image.fromarray(item, "L"), dtype=np.float32) / np.float32(255)
        tensor = array.reshape(1, 1, 28, 28)
        checksum += float(tensor[0, 0, 14, 8])
    return checksum


def softmax_top5(logits):
    e = np.exp(logits - logits.max())
    p = e / e.sum()
    top = np.argpartition(-p, 5)[:5]
    return top[np.argsort(-p[top], kind="stable")], p


def measure(body, runs, warm_up=3):
    """Wall-clock and thread CPU time of `runs` calls after a warm-up (same fields as the Swift side)."""
    for _ in range(warm_up):
        body()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        body()
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    wall.sort()
    cpu.sort()
    return {"min_s": wall[0], "median_s": wall[len(wall) // 2], "mean_s": sum(wall) / len(wall),
            "cpu_min_s": cpu[0], "cpu_median_s": cpu[len(cpu) // 2]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--swift-bench", required=True)
    parser.add_argument("--out", default="results")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--photo", default=".build/bench/photo-4032x3024.jpg")
    args = parser.parse_args()
    photo = Path(args.photo)
    make_photo(photo)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tensor_path = Path(".build/bench/swift-tensor.f32")

    def run_swift():
        return json.loads(subprocess.run(
            [args.swift_bench, "--jpeg", str(photo), "--runs", str(args.runs), "--tensor-out", str(tensor_path),
             "--fashion-dir", FASHION], check=True, capture_output=True, text=True).stdout)

    logits = np.random.default_rng(3).uniform(-8, 8, 1000).astype(np.float32)
    repetitions = 2000

    def many_softmax():
        for _ in range(repetitions):
            softmax_top5(logits)

    def run_python():
        python = {"jpeg_to_tensor": measure(lambda: pillow_photo_to_tensor(photo), args.runs),
                  "jpeg_decode": measure(lambda: pillow_decode(photo), args.runs)}
        decoded = pillow_decode(photo).convert("RGB")
        python["jpeg_postprocess"] = measure(lambda: pillow_postprocess(decoded), args.runs)
        holder = {}
        python["fashion_load"] = measure(lambda: holder.update(data=fashion_load()), max(3, args.runs // 6), warm_up=1)
        images = holder["data"][0]
        python["fashion_pipeline"] = measure(lambda: fashion_pipeline(images), max(3, args.runs // 6), warm_up=1)
        timing = measure(many_softmax, max(5, args.runs // 3))
        python["softmax_top5"] = {key: value / repetitions for key, value in timing.items()}
        return python

    # The machine is shared: alternate the two sides for several rounds and keep each
    # side's best round per pipeline, so a burst of load on one side does not decide.
    swift_rounds, python_rounds = [], []
    for _ in range(args.rounds):
        swift_rounds.append(run_swift())
        python_rounds.append(run_python())

    def best(rounds):
        keys = [k for k, v in rounds[0].items() if isinstance(v, dict)]
        return {k: min((r[k] for r in rounds), key=lambda t: t["median_s"]) for k in keys}

    swift, python = best(swift_rounds), best(python_rounds)
    reference = pillow_photo_to_tensor(photo)
    swift_tensor = np.fromfile(tensor_path, "<f4").reshape(reference.shape)
    agreement = float(np.abs(swift_tensor - reference).max())

    rows = []
    for key, label in [("jpeg_to_tensor", "4032x3024 JPEG -> 1x3x224x224 ImageNet tensor"),
                       ("jpeg_decode", "  of which: JPEG draft decode only (DCT scale 1/8, 504x378)"),
                       ("jpeg_postprocess", "  of which: resize 224 (bilinear) + centre crop + ImageNet normalise"),
                       ("fashion_load", "Fashion-MNIST t10k: gunzip + parse IDX"),
                       ("fashion_pipeline", "Fashion-MNIST t10k: 10,000 images -> [1,1,28,28] unit tensors"),
                       ("softmax_top5", "softmax + top-5 over 1000 classes (per call)")]:
        s, p = swift[key]["median_s"], python[key]["median_s"]
        sc, pc = swift[key]["cpu_median_s"], python[key]["cpu_median_s"]
        # Each round ran both sides back to back: the ratio within a round is the fairest
        # comparison on a busy machine; report the median round and the range.
        paired = sorted(pr[key]["median_s"] / sr[key]["median_s"] for sr, pr in zip(swift_rounds, python_rounds))
        rows.append({"pipeline": key, "description": label, "swift_median_s": s, "pillow_numpy_median_s": p,
                     "speedup": paired[len(paired) // 2], "speedup_range": [paired[0], paired[-1]],
                     "best_vs_best_speedup": p / s,
                     "swift_cpu_median_s": sc, "pillow_numpy_cpu_median_s": pc,
                     "cpu_speedup": pc / sc if sc > 0 else None,
                     "swift_min_s": swift[key]["min_s"], "pillow_numpy_min_s": python[key]["min_s"]})

    from PIL import features
    libjpeg_pillow = f"libjpeg-turbo {features.version('libjpeg_turbo')}"
    debian = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libjpeg62-turbo"], capture_output=True, text=True)
    libjpeg_debian = f"libjpeg-turbo {debian.stdout.strip() or 'unknown'}"
    record = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": "make bench-preprocessing  (or: .venv/bin/python scripts/images/bench_preprocessing.py "
                   "--swift-bench .build/release/benchbook-preprocess-bench)",
        "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                    "cpus": __import__("os").cpu_count()},
        "versions": {"python": platform.python_version(), "pillow": PIL.__version__, "numpy": np.__version__,
                     "swift_libjpeg": libjpeg_debian, "pillow_libjpeg": libjpeg_pillow},
        "runs": args.runs,
        "rounds": args.rounds,
        "method": "each side: warm-up, then timed runs; median per pipeline; the two sides alternate for "
                  "`rounds` rounds and each keeps its best round (shared 2-core machine)",
        "jpeg_tensor_max_abs_difference_vs_pillow": agreement,
        "results": rows,
        "swift_rounds": swift_rounds,
        "python_rounds": python_rounds,
    }
    (out / "preprocessing-benchmark.json").write_text(json.dumps(record, indent=1))
    lines = ["# Preprocessing benchmark: Benchbook (Swift) vs Pillow + NumPy", "",
             f"{record['date']}, {record['machine']['platform']}, {record['machine']['cpus']} CPUs, "
             f"Pillow {PIL.__version__}, NumPy {np.__version__}, median of {args.runs} runs (fewer for the dataset rows), best of {args.rounds} alternating rounds.", "",
             "| pipeline | Swift (ms) | Pillow+NumPy (ms) | speed-up (median round) | range over rounds | CPU-time speed-up |",
             "|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        cpu = f"{row['cpu_speedup']:.2f}x" if row["cpu_speedup"] else "n/a"
        low, high = row["speedup_range"]
        lines.append(f"| {row['description']} | {row['swift_median_s'] * 1e3:.3f} | {row['pillow_numpy_median_s'] * 1e3:.3f} | "
                     f"{row['speedup']:.2f}x | {low:.2f}-{high:.2f}x | {cpu} |")
    lines += ["", "Times are each side's best round (median wall-clock time of its runs). The speed-up is the "
              "median over rounds of the ratio within a round (both sides ran back to back); the CPU-time "
              "column compares thread CPU time of the best rounds.",
              "", f"JPEG decoding is libjpeg-turbo on both sides: Debian's {libjpeg_debian} for Swift, "
              f"{libjpeg_pillow} bundled in the Pillow wheel. At DCT scale 1/8 almost all of the time is Huffman "
              "decoding of the whole file, which DCT scaling cannot skip, so this pipeline is decode-bound.",
              "", f"Swift's JPEG tensor vs Pillow's: max |difference| = {agreement:.2e} "
              "(same DCT-scaled decode; resize within ±1 of Pillow on 8-bit values).", "",
              "Reproduce: `make bench-preprocessing` (or the command in the JSON record). "
              "The photo is synthetic (made by the script, 4032x3024, quality 90)."]
    (out / "preprocessing-benchmark.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
