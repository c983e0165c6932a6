"""Benchbook's ExecuTorch profile against ExecuTorch's own Inspector reading the same ETDump.

    .venv-export/bin/python scripts/models/check_etdump.py --bin .build/release/benchbook-models PROGRAM.pte...

For each program, `benchbook-models profile --etdump DIR` profiles it (Model.profile: the shim's
ETDumpGen subclass keeps each event and writes the ETDump), and the Inspector of the export
environment's executorch (executorch.devtools.Inspector) reads the ETDump. Every XNNPACK operator
and every kernel call must have the same number of calls and the same total time in both, to the
microsecond the delegate reports, a kernel call to 2 microseconds (each tracer reads the clock
around the other's read). Exit status 1 on any difference. Part of `make test-executorch-export` (the Inspector needs torch, so not of `make test`).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings
from collections import defaultdict

warnings.filterwarnings("ignore")
os.environ.setdefault("TORCHAO_FORCE_SKIP_LOADING_SO_FILES", "1")


def ours(record):
    """{event name as the ETDump names it: (calls, seconds)} from Benchbook's profile."""
    totals = {}
    for entry in record["operators"]:
        if entry["runtime_step"]:
            continue
        implementation = entry.get("implementation") or ""
        if implementation.startswith("XNNPACK, delegated block"):
            # Benchbook splits XNNPACK's "Convolution (NHWC, F32) IGEMM #2" into kind and "block 1 #2".
            name = entry["kind"] + " " + entry["name"].split(" ", 2)[-1]
        else:
            name = "OPERATOR_CALL"  # a kernel call: the ETDump names it so (its instruction is the debug handle)
        calls, seconds = totals.get(name, (0, 0.0))
        totals[name] = (calls + entry["calls"], seconds + entry["total_s"])
    return totals


def inspectors(etdump, runs):
    """The same from the Inspector (its durations are milliseconds), over the last `runs` blocks."""
    from executorch.devtools import Inspector
    totals = defaultdict(lambda: [0, 0.0])
    blocks = Inspector(etdump_path=etdump).event_blocks
    for block in blocks[-runs:] if len(blocks) > 1 else blocks:
        for event in block.events:
            # A delegate call and the method are runtime steps in Benchbook's profile; a kernel's own
            # "native_call_<operator>" event lies inside its OPERATOR_CALL, which is compared.
            if (event.name in ("DELEGATE_CALL", "Method::execute") or event.name.startswith("native_call_")
                    or event.perf_data is None):
                continue
            totals[event.name][0] += len(event.perf_data.raw)
            totals[event.name][1] += sum(event.perf_data.raw) / 1e3
    return {name: tuple(value) for name, value in totals.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as directory:
        done = subprocess.run([args.bin, "profile", "--runs", str(args.runs), "--threads", "1", "--etdump", directory,
                               *args.programs], capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            sys.exit(f"benchbook-models profile failed: {done.stderr[-2000:]}")
        records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        for record in records:
            name = os.path.basename(record["model"])
            mine = ours(record)
            theirs = inspectors(os.path.join(directory, name + ".etdp"), record["runs"])
            # Both time the same scope, each reading the clock once more around the other's read:
            # up to 2 us a call apart (XNNPACK's own operator times are whole microseconds in both).
            differing = [(event, mine.get(event), theirs.get(event)) for event in sorted(set(mine) | set(theirs))
                         if mine.get(event, (0, 0))[0] != theirs.get(event, (0, 0))[0]
                         or abs(mine.get(event, (0, 0.0))[1] - theirs.get(event, (0, 0.0))[1])
                         > 2e-6 * max(mine.get(event, (0, 0))[0], 1)]
            print(f"{name}: {len(mine)} event names, {sum(c for c, _ in mine.values())} calls; "
                  f"{'same as' if not differing else 'DIFFERENT from'} ExecuTorch's Inspector")
            for event, a, b in differing[:10]:
                print(f"  {event}: Benchbook {a}, Inspector {b}")
            failures += bool(differing)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
