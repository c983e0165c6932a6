"""The seed 000 normalisation loop as notebook cells against the same file built with swiftc
(issue 23), written to results/normalize-loop.{json,md}.

    .venv/bin/python scripts/bench/normalize_bench.py        (or: make bench-normalize)

`scripts/bench/normalize-loop.swift` is both things at once: as one main.swift it builds
with `swiftc -O` (and `swiftc -Onone`, for scale); split at its `//% cell` lines it is a
notebook whose last cell times the loop 400 times and prints the median, exactly as the
main.swift does. Each round runs, one after the other so they share the machine's load:
the two swiftc builds, and the timing cell in three kernels of the installed "swift"
kernelspec: as it starts (`%optimize auto`, interrupt checks on), with the loop
interrupt checks off (BENCHBOOK_LOOP_CHECKS=0, what they cost), and unoptimised
(BENCHBOOK_OPTIMIZE=off, what the level costs). The figures are medians over the rounds of
each round's median; ratios are taken within a round.
"""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "scripts" / "bench" / "normalize-loop.swift"
sys.path.insert(0, str(ROOT / "Tests" / "python"))

from jupyter_client.manager import start_new_kernel  # noqa: E402
from kernel_helpers import run_cell, text_of  # noqa: E402

KERNELS = {
    "cell": {},
    "cell, loop checks off": {"BENCHBOOK_LOOP_CHECKS": "0"},
    "cell, %optimize off": {"BENCHBOOK_OPTIMIZE": "off"},
}


def progress(text):
    print(text, file=sys.stderr, flush=True)


def median_ms(text):
    match = re.search(r"median_ms ([0-9.e-]+)", text)
    if not match:
        raise SystemExit(f"no median in output: {text!r}")
    return float(match.group(1))


def swiftc():
    for directory in os.environ.get("PATH", "").split(":") + ["/opt/swift/usr/bin"]:
        candidate = Path(directory) / "swiftc"
        if candidate.exists():
            return str(candidate)
    raise SystemExit("swiftc not found on PATH or in /opt/swift/usr/bin")


def build(work, level):
    binary = work / f"normalize{level}"
    subprocess.run([swiftc(), level, str(work / "main.swift"), "-o", str(binary)], check=True)
    return binary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args()
    source = SOURCE.read_text()
    cells = [cell.strip("\n") for cell in source.split("//% cell\n")[1:]]
    load = os.getloadavg()[0]
    progress(f"load average at start: {load:.2f}")
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        (work / "main.swift").write_text(source)
        progress("building main.swift with swiftc -O and -Onone")
        binaries = {"swiftc -O": build(work, "-O"), "swiftc -Onone": build(work, "-Onone")}
        kernels = {}
        try:
            for name, env in KERNELS.items():
                progress(f"starting the kernel for '{name}' and running the set-up cells")
                km, kc = start_new_kernel(kernel_name="swift", startup_timeout=60, env=dict(os.environ, **env))
                kernels[name] = (km, kc)
                for cell in cells[:-1]:
                    reply, _ = run_cell(kc, cell, timeout=600)
                    if reply["status"] != "ok":
                        raise SystemExit(f"{name}: set-up cell failed: {reply.get('ename')}: {reply.get('evalue')}")
            times = {name: [] for name in list(binaries) + list(kernels)}
            for round_number in range(1, args.rounds + 1):
                for name, binary in binaries.items():
                    times[name].append(median_ms(subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout))
                for name, (km, kc) in kernels.items():
                    reply, outputs = run_cell(kc, cells[-1], timeout=600)
                    if reply["status"] != "ok":
                        raise SystemExit(f"{name}: timing cell failed: {reply.get('ename')}: {reply.get('evalue')}")
                    times[name].append(median_ms(text_of(outputs)))
                progress(f"round {round_number}/{args.rounds}: " + ", ".join(f"{n} {t[-1]:.3f} ms" for n, t in times.items()))
        finally:
            for km, kc in kernels.values():
                kc.stop_channels()
                km.shutdown_kernel(now=True)
    reference = times["swiftc -O"]
    ratios = {name: statistics.median(v / r for v, r in zip(values, reference)) for name, values in times.items()}
    result = {
        "command": "make bench-normalize",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "load_average_at_start": round(load, 2)},
        "rounds": args.rounds,
        "loop": "seed 000 ImageClassifier.normalize: 224 x 224 RGBA bytes to NCHW float32 with ImageNet mean/std",
        "median_ms": {name: round(statistics.median(values), 4) for name, values in times.items()},
        "ratio_to_swiftc_O": {name: round(ratio, 2) for name, ratio in ratios.items()},
        "per_round_ms": {name: [round(v, 4) for v in values] for name, values in times.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "normalize-loop.json").write_text(json.dumps(result, indent=2) + "\n")
    rows = "\n".join(f"| {name} | {result['median_ms'][name]:.3f} | {result['ratio_to_swiftc_O'][name]:.2f} |" for name in times)
    (args.out / "normalize-loop.md").write_text(f"""# The seed 000 normalisation loop: a notebook cell against swiftc

`make bench-normalize` ({result['date']}, {result['machine']['processor']}, {result['machine']['cores']} cores,
load average {load:.2f} at the start, shared with other work). `scripts/bench/normalize-loop.swift`
as one main.swift built with swiftc, and as three notebook cells in the Benchbook kernel (its
last cell times the loop 400 times and prints the median, as the main.swift does). Medians
over {args.rounds} rounds; the ratio is taken within each round, then its median.

| build | median of the loop (ms) | × swiftc -O |
|---|---|---|
{rows}

"cell" is the kernel as it starts (`%optimize auto`: the cells with loops and functions are
compiled with -O) with the interrupt checks in every loop; "loop checks off" leaves them
out (BENCHBOOK_LOOP_CHECKS=0); "%optimize off" compiles every cell with -Onone.
""")
    progress(f"wrote {args.out / 'normalize-loop.md'}")


if __name__ == "__main__":
    main()
