"""The seed 000 normalisation as notebook cells against the same file built with swiftc
(issues 23 and 35), and how fast a runaway loop stops, written to
results/normalize-loop.{json,md}.

    PYTHONPATH=python .venv/bin/python scripts/bench/normalize_bench.py        (or: make bench-normalize)
    PYTHONPATH=python .venv/bin/python scripts/bench/normalize_bench.py --load 2   (beside two busy loops)

Three programs, each both things at once: as one main.swift it builds with `swiftc -O` (and
`swiftc -Onone`, for scale); split at its `//% cell` lines it is a notebook whose last cell
times the loop 400 times and prints the median, exactly as the main.swift does.
`normalize-loop.swift` is the seed app's pointer loop (swiftc does not vectorise it);
`normalize-array.swift` is the same normalisation as a function over `[UInt8]` and a timing
loop in one cell (swiftc vectorises its inner loop); `normalize-seed.swift` is seed 000's
three nested loops as the seed writes them, in a function. Each round runs, one after the
other so they share the machine's load: the swiftc builds, and the timing cells in four
kernels of the installed "swift" kernelspec: as it starts (`%optimize auto`, interrupt
checks on), with the loop interrupt checks off (BENCHBOOK_LOOP_CHECKS=0, what they cost),
unoptimised (BENCHBOOK_OPTIMIZE=off, what the level costs), and with the debug assert
configuration the cells had before issue 48 (BENCHBOOK_CELL_FLAGS="-assert-config Debug"). The figures are medians over
the rounds of each round's median; ratios are taken within a round.

Then, in the first kernel, `while true {}` is interrupted 10 times: the time from the
`interrupt_request` to the `execute_reply`, and whether a variable of an earlier cell kept
its value. `--load N` runs N `yes > /dev/null` loops for the whole benchmark.
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

# A benchmark of compiles and cells keeps no cell cache (issue 34), or a second run would load
# every cell it measures from the first run's: set BENCHBOOK_CELL_CACHE to measure with one.
os.environ.setdefault("BENCHBOOK_CELL_CACHE", "off")

from jupyter_client.manager import start_new_kernel  # noqa: E402
from benchbook_kit import ROOT  # noqa: E402
from benchbook_kit.kernel import run_cell, text_of  # noqa: E402

PROGRAMS = {
    "pointer loop": ROOT / "scripts" / "bench" / "normalize-loop.swift",
    "[UInt8] function": ROOT / "scripts" / "bench" / "normalize-array.swift",
    "seed loop": ROOT / "scripts" / "bench" / "normalize-seed.swift",
}

# Loops of the Swift corpus (Tests/Corpus), each program's cells followed by a timing cell.
CORPUS_LOOPS = {
    "corpus 29-matrices product": (ROOT / "Tests" / "Corpus" / "29-matrices.swift", """import Glibc
func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
let square = Matrix(rows: 48, columns: 48, elements: (0..<(48 * 48)).map { Double($0 % 7) })
var times: [Double] = []
var checksum = 0.0
for _ in 0..<40 {
    let start = seconds()
    let product = square * square
    times.append(seconds() - start)
    checksum += product[3, 5]
}
times.sort()
print("median_ms", times[times.count / 2] * 1000, "p10_ms", times[times.count / 10] * 1000, "checksum", checksum)
"""),
}

KERNELS = {
    "cell": {},
    "cell, loop checks off": {"BENCHBOOK_LOOP_CHECKS": "0"},
    "cell, %optimize off": {"BENCHBOOK_OPTIMIZE": "off"},
    # The cells' flags before issue 48: -O with the debug assert configuration (the frontend
    # takes the last -assert-config it is given).
    "cell, -assert-config Debug": {"BENCHBOOK_CELL_FLAGS": "-assert-config Debug"},
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


def build(work, program, level):
    binary = work / f"{program}{level}"
    subprocess.run([swiftc(), level, str(work / program / "main.swift"), "-o", str(binary)], check=True)
    return binary


def interrupt_runaway(kc, runs):
    """Interrupts `while true {}` `runs` times; returns [(seconds to the reply, state kept)]."""
    reply, _ = run_cell(kc, "var keptAcrossInterrupts = 42")
    assert reply["status"] == "ok", reply
    measured = []
    for _ in range(runs):
        msg_id = kc.execute('print("running")\nwhile true {}')
        while True:
            msg = kc.get_iopub_msg(timeout=300)
            if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
                break
        time.sleep(0.3)
        sent = time.perf_counter()
        kc.control_channel.send(kc.session.msg("interrupt_request", {}))
        reply = kc.get_shell_msg(timeout=120)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=120)
        seconds = time.perf_counter() - sent
        while True:  # the cell's remaining output, up to its idle status
            msg = kc.get_iopub_msg(timeout=120)
            if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status"
                    and msg["content"]["execution_state"] == "idle"):
                break
        check, outputs = run_cell(kc, "keptAcrossInterrupts")
        kept = check["status"] == "ok" and [m["content"]["data"]["text/plain"] for m in outputs
                                            if m["msg_type"] == "execute_result"] == ["42"]
        measured.append({"seconds": round(seconds, 3), "ename": reply["content"].get("ename"), "state_kept": kept})
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--interrupts", type=int, default=10)
    parser.add_argument("--load", type=int, default=0, help="busy loops (yes > /dev/null) to run meanwhile")
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    parser.add_argument("--name", default="normalize-loop", help="file name of the records in --out, without suffix")
    args = parser.parse_args()
    sources = {name: path.read_text() for name, path in PROGRAMS.items()}
    for name, (path, timing) in CORPUS_LOOPS.items():
        PROGRAMS[name] = path
        sources[name] = path.read_text().rstrip("\n") + "\n//% cell\n" + timing
    cells = {name: [cell.strip("\n") for cell in source.split("//% cell\n")[1:]] for name, source in sources.items()}
    busy = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.load)]
    load = os.getloadavg()[0]
    progress(f"load average at start: {load:.2f}; {args.load} busy loops")
    try:
        with tempfile.TemporaryDirectory() as directory:
            work = Path(directory)
            binaries = {}
            for program, source in sources.items():
                (work / program).mkdir()
                (work / program / "main.swift").write_text(source)
                progress(f"building {program} ({PROGRAMS[program].name}) with swiftc -O and -Onone")
                for level in ("-O", "-Onone"):
                    binaries[(program, f"swiftc {level}")] = build(work, program, level)
            kernels = {}
            try:
                for name, env in KERNELS.items():
                    progress(f"starting the kernel for '{name}' and running the set-up cells")
                    km, kc = start_new_kernel(kernel_name="swift", startup_timeout=60, env=dict(os.environ, **env))
                    kernels[name] = (km, kc)
                    for program in PROGRAMS:
                        for cell in cells[program][:-1]:
                            reply, _ = run_cell(kc, cell, timeout=600)
                            if reply["status"] != "ok":
                                raise SystemExit(f"{name}: set-up cell failed: {reply.get('ename')}: {reply.get('evalue')}")
                rows = [(program, kind) for program in PROGRAMS for kind in ["swiftc -O", "swiftc -Onone"] + list(kernels)]
                times = {row: [] for row in rows}
                for round_number in range(1, args.rounds + 1):
                    for program in PROGRAMS:
                        for level in ("swiftc -O", "swiftc -Onone"):
                            output = subprocess.run([str(binaries[(program, level)])], check=True, capture_output=True, text=True).stdout
                            times[(program, level)].append(median_ms(output))
                        for name, (km, kc) in kernels.items():
                            reply, outputs = run_cell(kc, cells[program][-1], timeout=600)
                            if reply["status"] != "ok":
                                raise SystemExit(f"{name}: timing cell failed: {reply.get('ename')}: {reply.get('evalue')}")
                            times[(program, name)].append(median_ms(text_of(outputs)))
                    progress(f"round {round_number}/{args.rounds}: " + ", ".join(f"{p}/{n} {t[-1]:.3f} ms" for (p, n), t in times.items()))
                progress(f"interrupting while true {{}} {args.interrupts} times")
                interrupts = interrupt_runaway(kernels["cell"][1], args.interrupts)
            finally:
                for km, kc in kernels.values():
                    kc.stop_channels()
                    km.shutdown_kernel(now=True)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    ratios = {row: statistics.median(v / r for v, r in zip(values, times[(row[0], "swiftc -O")])) for row, values in times.items()}
    stops = [entry["seconds"] for entry in interrupts]
    result = {
        "command": "make bench-normalize" + (f" NORMALIZE_LOAD={args.load} (scripts/bench/normalize_bench.py --load {args.load} --name {args.name})" if args.load else ""),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "load_average_at_start": round(load, 2), "busy_loops": args.load},
        "rounds": args.rounds,
        "programs": {name: str(path.relative_to(ROOT)) for name, path in PROGRAMS.items()},
        "loop": "seed 000 ImageClassifier.normalize: 224 x 224 RGBA bytes to NCHW float32 with ImageNet mean/std",
        "median_ms": {f"{p} | {n}": round(statistics.median(v), 4) for (p, n), v in times.items()},
        "ratio_to_swiftc_O": {f"{p} | {n}": round(r, 2) for (p, n), r in ratios.items()},
        "per_round_ms": {f"{p} | {n}": [round(x, 4) for x in v] for (p, n), v in times.items()},
        "interrupts": interrupts,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{args.name}.json").write_text(json.dumps(result, indent=2) + "\n")
    table = "\n".join(f"| {p} | {n} | {statistics.median(times[(p, n)]):.3f} | {ratios[(p, n)]:.2f} |" for p, n in rows)
    kept = sum(entry["state_kept"] for entry in interrupts)
    (args.out / f"{args.name}.md").write_text(f"""# The seed 000 normalisation: a notebook cell against swiftc

`{result['command']}` ({result['date']}, {result['machine']['processor']}, {result['machine']['cores']} cores,
load average {load:.2f} at the start, {args.load} busy loops beside it, shared with other work). Four
programs, each as one main.swift built with swiftc and as notebook cells in the Benchbook
kernel; their last cell times the normalisation 400 times and prints the median, as the
main.swift does. Medians over {args.rounds} rounds; the ratio is taken within each round, then its
median.

- **pointer loop**: `scripts/bench/normalize-loop.swift`, the seed app's loop over an
  `UnsafeMutablePointer<UInt8>` with the sizes and constants in an earlier cell; swiftc -O
  does not vectorise it.
- **[UInt8] function**: `scripts/bench/normalize-array.swift`, the same normalisation as a
  function over `[UInt8]` returning `[Float]` and a timing loop, in one cell; swiftc -O
  vectorises its inner loop.
- **corpus 29-matrices product**: the Swift corpus's `Tests/Corpus/29-matrices.swift` (a generic
  `Matrix<T: Numeric2>` whose `*` is three nested loops, in its own cells) and a timing cell
  multiplying two 48 × 48 `Matrix<Double>` 40 times.
- **seed loop**: `scripts/bench/normalize-seed.swift`, seed 000's loop as the seed writes it
  (`for y in 0..<h {{ for x in 0..<w {{ for c in 0..<3 {{ out[c*w*h + y*w + x] = ... }} }} }}`)
  in a function over `[UInt8]` with the model's fixed 224 × 224 input, the photo in an earlier
  cell, the timing loop in a later one.

| program | build | median of a call (ms) | × swiftc -O |
|---|---|---|---|
{table}

"cell" is the kernel as it starts (`%optimize auto`: the cells with loops and functions are
compiled with -O) with its interrupt checks, which are in `while` and `repeat` bodies and in
`for` bodies that hold another loop (or run over `a...`), not in an innermost `for` over a
bounded sequence; "loop checks off" leaves every check out (BENCHBOOK_LOOP_CHECKS=0);
"%optimize off" compiles every cell with -Onone; "-assert-config Debug" compiles the
optimised cells as they were before issue 48 (`-O -assert-config Debug`, which kept the
runtime's messages; now a trap's cause comes from the line tables instead, see
docs/executing-cells.md).

## Interrupting a runaway loop

`while true {{}}` interrupted {len(interrupts)} times in the "cell" kernel (0.3 s after it printed
that it runs), beside a variable an earlier cell made: from `interrupt_request` to the
cell's `execute_reply`, median {statistics.median(stops):.3f} s, max {max(stops):.3f} s; the
variable kept its value {kept} of {len(interrupts)} times
(errors: {", ".join(sorted(set(str(entry["ename"]) for entry in interrupts)))}).
""")
    progress(f"wrote {args.out / (args.name + '.md')}")


if __name__ == "__main__":
    main()
