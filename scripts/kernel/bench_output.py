"""Output throughput through a real jupyter_client: results/output-throughput.{json,md}.

    PYTHONPATH=python .venv/bin/python scripts/kernel/bench_output.py --out results [--compare-kernel swift-before]

A cell prints SIZE megabytes to standard output or standard error, as one line or as lines
of 100 bytes; the time is from execute_request to the idle status, with every stream
message received and decoded by the client (its text is counted, so nothing is lost
unseen). The same output is printed by ipykernel ("python3") in the same run, interleaved
case by case:

    Swift   print(text)                                   one line (text: N - 1 x, made in an earlier cell)
            for _ in 0..<N/100 { print(line) }            many lines (line: 99 x)
            fputs(text + "\\n", stderr), fputs(line, stderr)  standard error
    Python  sys.stdout.write(text)                        one line
            for _ in range(N // 100): print(line)         many lines
            sys.stderr.write / print(..., file=sys.stderr) standard error

Kernels:
- "swift" with BENCHBOOK_OUTPUT_LIMIT=0: everything is sent to the client (the pipeline's
  throughput, comparable with ipykernel, which has no limit);
- "swift" as installed (the default 10 MB limit): what a notebook user waits for when a cell
  prints far more than a page can show (the rest goes to a file);
- with --compare-kernel NAME, an earlier build (see bench_latency.py) on the figures the
  issue measured (stdout 200 MB one line and many lines, stderr 20 MB one line); a case
  whose smaller size already took longer than --slow-case seconds is not run at the next size.

Each figure is the median of --runs runs (default 3) in a fresh kernel per case, with the
same cell printing nothing subtracted (compiling the cell, the message round trip): "net
MB/s" is the size over the remaining time. The load average is recorded; the machine has 2
cores, and other work inflates every figure, ratios within the run less so.
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

from jupyter_client.manager import KernelManager

from benchbook_kit.kernel import run_cell

MB = 1_000_000
MIN_NET_SECONDS = 0.05
LINE = 100  # bytes per line, newline included


def swift_cells(stream, shape, size):
    """(set-up cell, timed cell): the set-up makes the text, so that only printing is timed."""
    if shape == "one line":
        setup = f'import Glibc\nlet text = String(decoding: [UInt8](repeating: UInt8(ascii: "x"), count: {max(size - 1, 0)}), as: UTF8.self)'
        if stream == "stdout":
            return setup, "print(text)" if size else 'print("", terminator: "")'
        return setup, '_ = fputs(text + "\\n", stderr)' if size else '_ = fputs("", stderr)'
    setup = f'import Glibc\nlet line = String(repeating: "x", count: {LINE - 1})\nlet lineAndNewline = line + "\\n"'
    if stream == "stdout":
        return setup, f"for _ in 0..<{size // LINE} {{ print(line) }}"
    return setup, f"for _ in 0..<{size // LINE} {{ _ = fputs(lineAndNewline, stderr) }}"


def python_cells(stream, shape, size):
    """(set-up cell, timed cell), as for Swift."""
    target = f"sys.{stream}"
    if shape == "one line":
        return f'import sys\ntext = "x" * {max(size - 1, 0)} + "\\n"', f"{target}.write(text)" if size else f'{target}.write("")'
    return f'import sys\nline = "x" * {LINE - 1}', f"for _ in range({size // LINE}): print(line, file={target})"


class Kernel:
    """One kernel started for one measurement."""

    def __init__(self, name, env=None):
        self.km = KernelManager(kernel_name=name)
        self.km.start_kernel(env=dict(os.environ, **(env or {})))
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=120)

    def run(self, code, timeout):
        start = time.perf_counter()
        reply, outputs = run_cell(self.kc, code, timeout=timeout)
        elapsed = time.perf_counter() - start
        if reply["status"] != "ok":
            raise SystemExit(f"cell failed: {code!r}: {reply.get('ename')}: {reply.get('evalue')}")
        received = sum(len(m["content"]["text"]) for m in outputs if m["msg_type"] == "stream")
        messages = sum(1 for m in outputs if m["msg_type"] == "stream")
        return elapsed, received, messages

    def stop(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def measure(kernel_name, env, make_cells, stream, shape, size, runs, timeout):
    """Median time of `runs` runs (a fresh kernel each), and of the same cell printing nothing."""
    times, empties, received, messages = [], [], 0, 0
    for _ in range(runs):
        kernel = Kernel(kernel_name, env)
        try:
            empty_setup, empty = make_cells(stream, shape, 0)
            setup, cell = make_cells(stream, shape, size)
            kernel.run(empty_setup, timeout)
            kernel.run(empty, timeout)  # warm: the first cells load the compiler
            empties.append(kernel.run(empty, timeout)[0])
            kernel.run(setup, timeout)
            elapsed, received, messages = kernel.run(cell, timeout)
            times.append(elapsed)
        finally:
            kernel.stop()
    wall, empty = statistics.median(times), statistics.median(empties)
    net = wall - empty
    # Under 50 ms of difference the two cells' noise is as large as the printing: no rate.
    rate = round(size / MB / net, 2) if net >= MIN_NET_SECONDS else None
    return {"seconds": round(wall, 3), "empty_cell_seconds": round(empty, 3), "net_seconds": round(net, 3),
            "net_mb_per_s": rate, "received_characters": received, "stream_messages": messages, "runs": times}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--render", metavar="JSON", help="only write the Markdown table of an earlier record")
    parser.add_argument("--out", default="results")
    parser.add_argument("--sizes", default="1,20,200", help="megabytes, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--compare-kernel", help="an earlier build's kernelspec, for the issue's figures")
    parser.add_argument("--compare-label", default="earlier build")
    parser.add_argument("--slow-case", type=float, default=60.0,
                        help="seconds after which the earlier build is not run at the next size")
    args = parser.parse_args()
    if args.render:
        record = json.loads(Path(args.render).read_text())
        for row in record["rows"]:
            for measured in row.values():
                if isinstance(measured, dict) and measured.get("net_seconds", 1) < MIN_NET_SECONDS:
                    measured["net_mb_per_s"] = None
        Path(args.out, "output-throughput.md").write_text(markdown(record))
        return
    sizes = [int(float(s) * MB) for s in args.sizes.split(",")]
    cases = [(stream, shape) for stream in ("stdout", "stderr") for shape in ("one line", "many lines")]
    load_at_start = os.getloadavg()
    rows = []
    for stream, shape in cases:
        before_too_slow = False
        for size in sizes:
            row = {"stream": stream, "shape": shape, "megabytes": size / MB}
            print(f"{stream}, {shape}, {size / MB:g} MB:", flush=True)
            row["benchbook"] = measure("swift", {"BENCHBOOK_OUTPUT_LIMIT": "0"}, swift_cells, stream, shape, size, args.runs, 1200)
            row["ipykernel"] = measure("python3", None, python_cells, stream, shape, size, args.runs, 1200)
            row["benchbook_default_limit"] = measure("swift", None, swift_cells, stream, shape, size, 1, 1200)
            for key in ("benchbook", "ipykernel", "benchbook_default_limit"):
                print(f"  {key}: {row[key]['seconds']:.2f} s, net {rate(row[key])} MB/s", flush=True)
            if args.compare_kernel and not before_too_slow:
                row["before"] = measure(args.compare_kernel, None, swift_cells, stream, shape, size, 1, 3600)
                print(f"  before: {row['before']['seconds']:.2f} s", flush=True)
                before_too_slow = row["before"]["seconds"] > args.slow_case
            rows.append(row)
    record = {
        "benchmark": "output throughput", "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": {"platform": platform.platform(), "cores": os.cpu_count(),
                    "load_average_at_start": load_at_start, "load_average_at_end": os.getloadavg()},
        "compare_label": args.compare_label if args.compare_kernel else None,
        "rows": rows,
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "output-throughput.json").write_text(json.dumps(record, indent=2) + "\n")
    (out / "output-throughput.md").write_text(markdown(record))
    print(markdown(record))


def rate(measured):
    return "–" if measured["net_mb_per_s"] is None else f"{measured['net_mb_per_s']:.1f}"


def markdown(record):
    rows = record["rows"]
    before = record["compare_label"]
    lines = [
        "# Output throughput: a cell printing 1 to 200 MB",
        "",
        f"Reproduce: `{record['command']}` (`make bench-output`). Measured {record['date']} on "
        f"{record['machine']['cores']} cores ({record['machine']['platform']}), load average "
        f"{', '.join(f'{x:.2f}' for x in record['machine']['load_average_at_start'])} at the start and "
        f"{', '.join(f'{x:.2f}' for x in record['machine']['load_average_at_end'])} at the end.",
        "",
        "Seconds from execute_request to idle with every stream message received by jupyter_client "
        "(median of the runs, a fresh kernel each); net MB/s: the size over that time minus the same "
        "cell printing nothing (– where that difference is under 50 ms: too small to tell). Benchbook with `BENCHBOOK_OUTPUT_LIMIT=0` sends everything, as ipykernel does; "
        "with the default limit (10 MB a cell) the rest goes to `benchbook-output/`.",
        "",
        "| stream | shape | MB | Benchbook s | net MB/s | ipykernel s | net MB/s | Benchbook ÷ ipykernel (net MB/s) | default limit s |"
        + (f" {before} s |" if before else ""),
        "|---|---|---|---|---|---|---|---|---|" + ("---|" if before else ""),
    ]
    for row in rows:
        ours, theirs = row["benchbook"], row["ipykernel"]
        both = ours["net_mb_per_s"] and theirs["net_mb_per_s"]
        ratio = f"{ours['net_mb_per_s'] / theirs['net_mb_per_s']:.2f}" if both else "–"
        cells = [row["stream"], row["shape"], f"{row['megabytes']:g}", f"{ours['seconds']:.2f}", rate(ours),
                 f"{theirs['seconds']:.2f}", rate(theirs), ratio,
                 f"{row['benchbook_default_limit']['seconds']:.2f}"]
        if before:
            cells.append(f"{row['before']['seconds']:.2f}" if "before" in row else "not run (smaller size too slow)")
        lines.append("| " + " | ".join(cells) + " |")
    per_byte = {}
    for row in rows:
        if row["megabytes"] == max(r["megabytes"] for r in rows):
            per_byte[(row["stream"], row["shape"])] = row["benchbook"]["net_mb_per_s"]
    lines += ["", "Standard error against standard output at the largest size (net MB/s, ≥ 0.5 means within 2×): "
              + ", ".join(f"{shape}: {per_byte[('stderr', shape)] / per_byte[('stdout', shape)]:.2f}"
                          for shape in ("one line", "many lines") if ("stderr", shape) in per_byte), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
