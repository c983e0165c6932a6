"""A class on one machine: N simulated students on a JupyterHub with the Swift kernel.

    PYTHONPATH=python .venv/bin/python scripts/hub/bench_class.py --students 1,2,4,8,16 --out results

For each N, on a fresh Hub on 127.0.0.1: N students' servers are started together through
the Hub's REST API; each opens a notebook session with the Swift kernel and runs the same
lesson over the kernel websocket, all students cell by cell together (as when a teacher
says "run the next cell"), twice, with one completion request (Tab) per student. A thread
samples every student's processes (server, kernel, cell host, cell parser, compiler, language
server) every 0.25 s. Written to results/: hub-class.json (everything), hub-class.md (table and
method) and hub-class.png (memory per student and cell latency against N).

Measurements, not tests: run it on a quiet machine and read the load averages recorded
with each row.
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np

from benchbook_kit import ROOT
from benchbook_kit.hub import Hub
from benchbook_kit.hub.classroom import COMPLETION, LESSON, MB, other_processes, per_cell_table, run_class
from benchbook_kit.report import table
from benchbook_kit.statistics import percentile



def verdict(row, p90_limit):
    if row["failures"]:
        return f"breaks: {len(row['failures'])} failure(s)"
    if row["cell_seconds"]["p90"] is not None and row["cell_seconds"]["p90"] > p90_limit:
        return f"too slow (p90 > {p90_limit:g} s)"
    return "works"


def write_markdown(out, record, command):
    rows = record["runs"]
    lines = [
        "# A class on one machine: the Swift kernel on JupyterHub",
        "",
        f"Measured {record['date']} on this machine: {record['machine']['cpus']} cores, "
        f"{record['machine']['memory_gib']:.0f} GiB, {record['machine']['system']}; JupyterHub {record['versions']['jupyterhub']}, "
        f"SimpleLocalProcessSpawner, Debian's configurable-http-proxy, CurveZMQ between each server and its kernel. "
        f"The machine is shared with other engineers: each row has its load averages (1 min) before and after.",
        "",
        f"Command: `{command}`",
        "",
    ]
    table_rows = []
    for row in rows:
        starts = [s for s in row["server_start_seconds"] if s is not None]
        cell = row["cell_seconds"]
        table_rows.append([
            str(row['students']), str(row['ready']), f"{percentile(starts, 50):.1f} s", f"{cell['p50']:.2f} s",
            f"{cell['p90']:.2f} s", f"{cell['max']:.2f} s", f"{row['memory_per_student_pss'] / MB:.0f} MB",
            f"{row['memory_per_student_pss_at_once'] / MB:.0f} MB", f"{row['memory_per_student_rss'] / MB:.0f} MB",
            f"{row['load_before'][0]:.2f} → {row['load_after'][0]:.2f}", row['verdict']])
    lines += table(["students", "servers ready", "server start p50", "cell p50", "cell p90", "cell max",
                    "memory per student: PSS, sum of role peaks", "PSS, peak at one instant", "RSS, sum of role peaks",
                    "load before → after", "result"], table_rows, "rrrrrrrrrll")
    biggest = rows[-1]
    roles = sorted({r for m in biggest["memory"] for r in m["roles"]})
    lines += [
        "",
        f"Where the memory goes (peak PSS per process role, mean over the students of the N = {biggest['students']} run; "
        "PSS shares pages used by several processes, such as libtorch in every cell host, among them):",
        "",
        *table(roles, [[f"{np.mean([m['roles'].get(r, {'pss': 0})['pss'] for m in biggest['memory']]) / MB:.0f} MB"
                        for r in roles]], "r" * len(roles)),
        "",
        "Processes of no known role, counted as *other*, by name (command): "
        + (", ".join(f"{name} at N = {', '.join(str(n) for n in ns)}" for name, ns in other_processes(rows).items())
           or "none") + ".",
        "",
        "Cell latency per lesson cell (p50 / p90, seconds from `execute_request` sent to `execute_reply` received, "
        "through the proxy, the student's server and the kernel, including the compile):",
        "",
        *per_cell_table(rows, [f"N = {r['students']}" for r in rows]),
    ]
    failures = [f for r in rows for f in r["failures"]]
    lines += [
        "",
        "How it was measured: for each N a fresh Hub; the N servers are started at once through "
        "`POST /hub/api/users/<name>/server`; each student opens a notebook session (`POST /user/<name>/api/sessions`, "
        "Swift kernel) and runs the six lesson cells above over the kernel websocket, all students cell by cell "
        f"together, {record['passes']} times, with one completion request after the second cell. Memory: every 0.25 s "
        "the process tree under each student's server (server, kernel, cell host, cell parser, compiler and linker, SourceKit-LSP); "
        "*memory per student* is the mean over students of the sum of each role's peak PSS (server + kernel + host + "
        "parser + compiler + language server; the peaks need not coincide, so this is an upper bound), beside the peak of the "
        "tree's total at one instant; PSS divides a page shared by several processes (libtorch in every cell host, "
        "the toolchain's libraries in every compiler) among them, RSS counts it once per process. The drop of the machine's MemAvailable is in hub-class.json too, but "
        "other engineers' builds move it by gigabytes on this shared machine, so it is not used here. The Hub and its "
        "proxy, shared by the class, are not counted per student (`hub_memory` in the JSON). "
        f"Result: *works*, or *too slow* when p90 is above {record['p90_limit']:g} s, or *breaks* on any failed start or cell.",
        "",
        "Failures: " + ("none." if not failures else "; ".join(failures[:20])),
        "",
        "Reading it: " + record["reading"],
        "",
    ]
    (out / "hub-class.md").write_text("\n".join(lines))


def reading(rows, memory_gib, p90_limit):
    """The paragraph that says where it breaks, from the figures."""
    working = [r["students"] for r in rows if r["verdict"] == "works"]
    broken = [r for r in rows if r["verdict"] != "works"]
    pss = max(r["memory_per_student_pss"] for r in rows) / (1024 ** 3)
    text = (f"memory is not the limit on this {memory_gib:.0f} GiB machine: a student costs at most {pss:.2f} GiB "
            f"(PSS, each role's peak summed), so memory alone would allow about {int(memory_gib * 0.8 / pss)} students (80 % of it). ")
    if broken:
        first = broken[0]
        text += (f"The 2 cores are: with {first['students']} students the result was '{first['verdict']}' "
                 f"(cell p90 {first['cell_seconds']['p90']:.1f} s). ")
    if working:
        text += f"Up to {max(working)} students every cell ran and p90 stayed under {p90_limit:g} s. "
    text += ("Cell latency grows with N because every cell is compiled (swift-frontend and the linker) on the cores "
             "all students share: p90 went " + ", ".join(f"{r['cell_seconds']['p90']:.1f} s at N = {r['students']}"
                                                         for r in rows) + ".")
    return text


def plot(out, rows, p90_limit):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ns = [r["students"] for r in rows]
    labels = [str(n) for n in ns]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    roles = ["server", "kernel", "host", "parser", "compiler", "language server", "other"]
    bottom = np.zeros(len(rows))
    for role_name in roles:
        values = np.array([np.mean([m["roles"].get(role_name, {"pss": 0})["pss"] for m in r["memory"]]) / MB for r in rows])
        if values.any():
            left.bar(labels, values, bottom=bottom, label=f"{role_name} (peak)")
            bottom += values
    left.plot(labels, [r["memory_per_student_pss_at_once"] / MB for r in rows], "kD", label="whole tree, peak at one instant")
    left.set_ylim(0, max(bottom) * 1.45)
    left.set_xlabel("students (N)")
    left.set_ylabel("MB (PSS) per student")
    left.set_title("Memory per student: each role's peak PSS, stacked")
    left.legend(fontsize=8, ncol=2, loc="upper right")
    right.plot(ns, [r["cell_seconds"]["p50"] for r in rows], "o-", label="p50")
    right.plot(ns, [r["cell_seconds"]["p90"] for r in rows], "s-", label="p90")
    right.axhline(p90_limit, color="grey", linestyle="--", linewidth=1, label=f"p90 limit ({p90_limit:g} s)")
    for r in rows:
        if r["verdict"] != "works":
            right.annotate(r["verdict"], (r["students"], r["cell_seconds"]["p90"]), textcoords="offset points",
                           xytext=(-10, -3), ha="right", fontsize=8)
    right.set_xscale("log", base=2)
    right.set_xticks(ns, labels)
    right.set_xlabel("students (N) on 2 cores")
    right.set_ylabel("seconds from execute_request to execute_reply")
    right.set_title("Cell latency over all lesson cells")
    right.grid(alpha=0.3)
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "hub-class.png", dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", default="1,2,4,8,16", help="comma-separated class sizes (default 1,2,4,8,16)")
    parser.add_argument("--passes", type=int, default=2, help="times each student runs the lesson (default 2)")
    parser.add_argument("--p90-limit", type=float, default=10.0, help="p90 cell latency (s) above which a class is too slow")
    parser.add_argument("--out", default=str(ROOT / "results"))
    parser.add_argument("--work", default=None,
                        help="directory for the Hubs, kept afterwards (default: a temporary one, removed at the end "
                             "unless a class failed; each student's home holds a copy of the lesson's files)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(args.work) if args.work else Path(os.environ.get("TMPDIR", "/tmp")) / f"benchbook-class-{os.getpid()}"

    def log(text):
        print(text, flush=True)

    import jupyterhub
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    log(f"uptime: {uptime}")
    rows = []
    for n in [int(x) for x in args.students.split(",")]:
        log(f"N = {n}: starting a Hub")
        with Hub(work / f"n{n}") as hub:
            row = run_class(hub, n, args.passes, log)
        row["verdict"] = verdict(row, args.p90_limit)
        log(f"N = {n}: cell p50 {row['cell_seconds']['p50']:.2f} s, p90 {row['cell_seconds']['p90']:.2f} s, "
            f"memory per student {row['memory_per_student_pss'] / MB:.0f} MB PSS; {row['verdict']}")
        rows.append(row)
        time.sleep(3)
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024 ** 3
    record = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": {"cpus": os.cpu_count(), "memory_gib": memory_gib, "system": f"{platform.system()} {platform.release()}",
                    "uptime_before": uptime, "uptime_after": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()},
        "versions": {"jupyterhub": jupyterhub.__version__, "python": platform.python_version()},
        "passes": args.passes, "p90_limit": args.p90_limit, "lesson": LESSON, "completion": COMPLETION,
        "runs": rows,
    }
    record["reading"] = reading(rows, memory_gib, args.p90_limit)
    (out / "hub-class.json").write_text(json.dumps(record, indent=1) + "\n")
    if not args.work:
        if any(r["failures"] for r in rows):
            log(f"kept {work} (Hub logs of the failed class)")
        else:
            shutil.rmtree(work, ignore_errors=True)
    command = f"make bench-hub (scripts/hub/bench_class.py --students {args.students} --passes {args.passes})"
    write_markdown(out, record, command)
    plot(out, rows, args.p90_limit)
    log(f"wrote {out}/hub-class.json, hub-class.md, hub-class.png; uptime: {record['machine']['uptime_after']}")


if __name__ == "__main__":
    main()
