"""What the teacher's kernel-side tools cost, through a real jupyter_client, written to
results/teacher-tools.{json,md}.

    PYTHONPATH=python .venv/bin/python scripts/teacher/bench_teacher.py --out results

One kernel (cwd notebooks/) runs notebook 04's code cells, so the namespace is a real
lesson's: photos, recipes, a model, evaluation results, widgets. Then, in turns (so the
machine's slow and fast spells fall on each):
- a trivial cell (`let tN = N`), `%who` and `%whos`: execute_request to idle, p50/p90;
- `usage_request` on control: request to reply, p50/p90;
and the last `usage_reply`'s memory per process (PSS), which is what jupyter-resource-usage
shows for such a kernel. The load average before and after is recorded: other work on the
2 cores inflates every time; the ratio against the trivial cell is the fairer figure.
"""
import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import nbformat
from jupyter_client.manager import start_new_kernel

from benchbook_kit import ROOT
from benchbook_kit.kernel import run_cell, text_of
from benchbook_kit.statistics import percentile

NOTEBOOK = ROOT / "notebooks" / "04-preprocessing-for-photos.ipynb"


def p90(values):
    return percentile(values, 90)


def usage(kc):
    request = kc.session.msg("usage_request", {})
    started = time.perf_counter()
    kc.control_channel.send(request)
    while True:
        reply = kc.control_channel.get_msg(timeout=30)
        if reply["parent_header"].get("msg_id") == request["header"]["msg_id"]:
            return time.perf_counter() - started, reply["content"]


def timed_cell(kc, code):
    started = time.perf_counter()
    reply, outputs = run_cell(kc, code)
    assert reply["status"] == "ok", (code, reply)
    return time.perf_counter() - started, outputs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    load_before = os.getloadavg()
    km, kc = start_new_kernel(kernel_name="swift", startup_timeout=60, cwd=str(NOTEBOOK.parent))
    try:
        nb = nbformat.read(NOTEBOOK, as_version=4)
        print(f"running {NOTEBOOK.name} ({sum(c.cell_type == 'code' for c in nb.cells)} code cells) ...", flush=True)
        for cell in nb.cells:
            if cell.cell_type == "code":
                reply, _ = run_cell(kc, cell.source, timeout=600)
                assert reply["status"] == "ok", reply
        times = {"trivial cell": [], "%who": [], "%whos": [], "usage_request": []}
        for round_ in range(args.rounds):
            times["trivial cell"].append(timed_cell(kc, f"let t{round_} = {round_}")[0])
            seconds, who = timed_cell(kc, "%who")
            times["%who"].append(seconds)
            seconds, whos = timed_cell(kc, "%whos")
            times["%whos"].append(seconds)
            seconds, content = usage(kc)
            times["usage_request"].append(seconds)
            print(f"round {round_ + 1} of {args.rounds}", flush=True)
        listing = text_of(whos).splitlines()
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    load_after = os.getloadavg()

    summary = {name: {"p50_ms": statistics.median(v) * 1000, "p90_ms": p90(v) * 1000, "n": len(v)}
               for name, v in times.items()}
    trivial = summary["trivial cell"]["p50_ms"]
    processes = {}
    for process in content["benchbook_processes"]:
        name = process["name"] + (" (ended, not reaped yet)" if process["ended"] else "")
        entry = processes.setdefault(name, {"count": 0, "pss_mb": 0.0})
        entry["count"] += 1
        entry["pss_mb"] += process["memory"] / 1e6
    record = {
        "command": "scripts/teacher/bench_teacher.py --out " + args.out + f" --rounds {args.rounds}",
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "load_average_before": load_before, "load_average_after": load_after,
        "namespace": f"{NOTEBOOK.name} after all its cells ({len(listing) - 2} names, {args.rounds} trivial cells more)",
        "latency": summary,
        "kernel_memory_mb": content["kernel_memory"] / 1e6,
        "processes": processes,
        "whos_example": listing[:12],
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "teacher-tools.json").write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    lines = [
        "# The teacher's kernel-side tools: cost",
        "",
        f"Made by `{record['command']}` (`make bench-teacher`): one kernel runs {NOTEBOOK.name}, then "
        f"{args.rounds} rounds of a trivial cell, `%who`, `%whos` and `usage_request`, in turns.",
        f"{os.cpu_count()} logical CPUs; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after.",
        "",
        "| request | p50 | p90 | p50 / trivial cell |",
        "|---|---|---|---|",
    ]
    for name, s in summary.items():
        lines.append(f"| {name} | {s['p50_ms']:.1f} ms | {s['p90_ms']:.1f} ms | {s['p50_ms'] / trivial:.2f} |")
    lines += [
        "",
        f"`%who` compiles and runs one listing cell (every variable imported, its value read in the host); "
        f"here the namespace is {record['namespace']}. `usage_request` reads /proc for every process of the kernel.",
        "",
        f"What jupyter-resource-usage shows for this kernel: {record['kernel_memory_mb']:.0f} MB (PSS, summed):",
        "",
        "| process | count | PSS |",
        "|---|---|---|",
    ]
    for name, entry in sorted(processes.items(), key=lambda item: -item[1]["pss_mb"]):
        lines.append(f"| {name} | {entry['count']} | {entry['pss_mb']:.0f} MB |")
    lines += ["", "The first lines of `%whos` in that kernel:", "", "```"] + listing[:12] + ["```", ""]
    (out / "teacher-tools.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
