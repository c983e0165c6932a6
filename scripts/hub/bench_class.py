"""A class on one machine: N simulated students on a JupyterHub with the Swift kernel.

    .venv/bin/python scripts/hub/bench_class.py --students 1,2,4,8,16 --out results

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
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from class_hub import Hub, HubError, MemorySampler, Student, memory_available  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# The lesson: the course's first steps with the Fashion-MNIST classifier (cwd: notebooks/).
LESSON = [
    ("load image", 'let sample = try Image(contentsOfFile: "data/sample_ankle_boot.png")\nsample'),
    ("load model, classify", 'let model = try Model(contentsOf: "models/fashion_cnn.ptl")\n'
                             'let input = try sample.tensor(normalization: .unit, layout: .nchw)\n'
                             'try model.classify(input)'),
    ("softmax chart", 'let probabilities = try model.run(input).softmax()\n'
                      'ProbabilityChart(probabilities: probabilities.floats, labels: model.labels ?? FashionMNIST.classNames,\n'
                      '                 title: "Class probabilities")'),
    ("inverted input", 'let inverted = try model.classify(sample.inverted().tensor(normalization: .unit, layout: .nchw))\n'
                       'print("inverted:", inverted.top.label)'),
    ("photo recipe", 'let photo = try Image(contentsOfFile: "data/product_photo.jpg")\n'
                     'try model.classify(Preprocessing.fashionMNIST.tensor(from: photo))'),
    ("50 runs timed", 'let timing = Benchmark.time { for _ in 0..<50 { _ = try? model.run(input) } }.timing\n'
                      'print("50 runs:", DurationFormat.string(timing.wallSeconds))'),
]
COMPLETION = "model.cla"     # after "load model, classify"
COMPLETION_EXPECTED = "classify"


def tab_until_listed(student, seconds=60):
    """A student's Tab, pressed again every 0.5 s until the list shows the expected member:
    (seconds to the first answer, seconds until an answer listed it, or None)."""
    started = time.time()
    first, content = student.complete(COMPLETION)
    while not any(m.startswith(COMPLETION_EXPECTED) for m in content["matches"]):
        if time.time() - started > seconds:
            return first, None
        time.sleep(0.5)
        content = student.complete(COMPLETION)[1]
    return first, time.time() - started


def percentile(values, q):
    return float(np.percentile(values, q)) if values else None


def cache_hits(student):
    """The cell cache's hits and lookups of a student's kernel (`%cache`, which is not timed
    and takes no cell number), or None when the cache is off."""
    try:
        student.request("execute_request", {"code": "%cache", "silent": False, "store_history": False,
                                            "user_expressions": {}, "allow_stdin": False}, timeout=120)
    except Exception:   # a measurement keeps going; the row shows no figure
        return None
    text = "".join(o["content"].get("text", "") for o in student.outputs if o["msg_type"] == "stream")
    match = re.search(r"([0-9]+) of ([0-9]+) compiles found in the cache(?: \(([0-9]+) in a shared cache\))?", text)
    if not match:
        return None
    return {"hits": int(match.group(1)), "lookups": int(match.group(2)), "shared_hits": int(match.group(3) or 0)}


def run_class(hub, n, passes, log, at_rest=None, cache_statistics=False):
    """One class of `n` students on `hub`. `at_rest(ready_students)`, when given, runs after
    the lesson while the servers still run, and what it returns is added to the row.
    `cache_statistics`: ask each kernel for its cell cache's hits after the lesson."""
    read_cache_statistics = cache_statistics
    students = [Student(hub, f"s{n}x{i + 1}") for i in range(n)]
    failures = []
    available_before = memory_available()
    load_before = os.getloadavg()
    started = time.time()

    with MemorySampler(students) as sampler:
        def start(student):
            try:
                student.start()
            except Exception as error:   # a measurement records every failure, whatever its kind
                failures.append(f"{student.name}: start: {type(error).__name__}: {error}")
        threads = [threading.Thread(target=start, args=(s,)) for s in students]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ready = [s for s in students if s.ready]
        log(f"  N={n}: {len(ready)} of {n} servers and kernels ready after {time.time() - started:.1f} s")
        sampler.sample()
        cpu_at_ready = {s.name: sampler.cpu_by_role(s.name) for s in ready}
        cpu_after_first = cpu_at_ready

        lowest_available = memory_available()
        completions = []
        for run in range(passes):
            for index, (label, code) in enumerate(LESSON):
                def cell(student):
                    seconds, reply = student.run(label, code)
                    if reply.get("status") != "ok":
                        failures.append(f"{student.name}: {label}: {reply.get('ename')}: {reply.get('evalue', '')[:200]}")
                    if run == 0 and index == 1:
                        try:
                            completions.append(tab_until_listed(student))
                        except Exception as error:
                            failures.append(f"{student.name}: completion: {type(error).__name__}: {error}")
                threads = [threading.Thread(target=cell, args=(s,)) for s in ready]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                lowest_available = min(lowest_available, memory_available())
                if run == 0 and index == 0:
                    sampler.sample()
                    cpu_after_first = {s.name: sampler.cpu_by_role(s.name) for s in ready}
                seconds = [s.timings[-1][1] for s in ready if s.timings]
                log(f"  N={n} pass {run + 1} cell {index + 1}/{len(LESSON)} ({label}): "
                    f"slowest {max(seconds, default=0):.2f} s")
        sampler.sample()
        cpu_at_end = {s.name: sampler.cpu_by_role(s.name) for s in ready}
        statistics = [cache_hits(s) for s in ready] if read_cache_statistics else []
        rest = at_rest(ready) if at_rest else {}
        for s in students:
            s.close()
    load_after = os.getloadavg()
    hub_memory = 0
    for p in hub.processes():
        try:
            hub_memory += p.memory_full_info().pss
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            pass

    for s in students:
        if s.server_pid is not None:
            try:
                hub.stop_server(s.name)
            except HubError as error:
                failures.append(f"{s.name}: stop: {error}")

    latencies = [t[1] for s in ready for t in s.timings]
    per_cell = {}
    for label, _ in LESSON:
        values = [t[1] for s in ready for t in s.timings if t[0] == label]
        per_cell[label] = {"p50": percentile(values, 50), "p90": percentile(values, 90), "max": max(values, default=None)}
    memory = []
    for s in students:
        roles = sampler.peak_role[s.name]
        memory.append({"student": s.name, "peak_rss": sampler.peak_total[s.name]["rss"],
                       "peak_pss": sampler.peak_total[s.name]["pss"],
                       "roles": roles, "sum_of_role_peaks_rss": sum(r["rss"] for r in roles.values()),
                       "sum_of_role_peaks_pss": sum(r["pss"] for r in roles.values()),
                       "other_processes": sorted(sampler.other_names[s.name])})
    return {
        "students": n,
        "ready": len(ready),
        "load_before": load_before, "load_after": load_after,
        "server_start_seconds": [getattr(s, "server_seconds", None) for s in students],
        "kernel_start_seconds": [getattr(s, "kernel_seconds", None) for s in students],
        "cells": len(latencies),
        "cell_seconds": {"p50": percentile(latencies, 50), "p90": percentile(latencies, 90),
                         "max": max(latencies, default=None)},
        "per_cell": per_cell,
        # The first answer (at once, from the notebook's names while SourceKit-LSP starts), and
        # the time until an answer lists the model's `classify` (the student pressing Tab again).
        "completion_seconds": {"p50": percentile([c[0] for c in completions], 50),
                               "max": max((c[0] for c in completions), default=None)},
        "completion_listed_seconds": {"p50": percentile([c[1] for c in completions if c[1] is not None], 50),
                                      "max": max((c[1] for c in completions if c[1] is not None), default=None),
                                      "never": sum(c[1] is None for c in completions)},
        "memory": memory,
        # The "server + kernel + host + compiler peaks": each role's own peak, summed.
        "memory_per_student_pss": float(np.mean([m["sum_of_role_peaks_pss"] for m in memory])) if memory else None,
        "memory_per_student_rss": float(np.mean([m["sum_of_role_peaks_rss"] for m in memory])) if memory else None,
        "memory_per_student_pss_at_once": float(np.mean([m["peak_pss"] for m in memory])) if memory else None,
        "machine_memory_used_per_student": (available_before - lowest_available) / n,
        "memory_samples": sampler.samples,
        "hub_memory": hub_memory,
        "failures": failures,
        # CPU-seconds per student by role (mean over the students that were ready): from the
        # start until the servers and kernels were ready, and from the start to the lesson's end.
        "cpu_start": mean_roles(cpu_at_ready), "cpu_first_cell": mean_roles(cpu_after_first),
        "cpu_total": mean_roles(cpu_at_end),
        "cache_statistics": statistics,
        **rest,
    }


def mean_roles(per_student):
    """{role: mean over students} of {student: {role: seconds}} (a role a student lacks counts 0)."""
    roles = sorted({r for values in per_student.values() for r in values})
    return {r: float(np.mean([values.get(r, 0.0) for values in per_student.values()])) for r in roles} if per_student else {}


def verdict(row, p90_limit):
    if row["failures"]:
        return f"breaks: {len(row['failures'])} failure(s)"
    if row["cell_seconds"]["p90"] is not None and row["cell_seconds"]["p90"] > p90_limit:
        return f"too slow (p90 > {p90_limit:g} s)"
    return "works"


MB = 1024 * 1024


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
        "| students | servers ready | server start p50 | cell p50 | cell p90 | cell max | memory per student: PSS, sum of role peaks | PSS, peak at one instant | RSS, sum of role peaks | load before → after | result |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in rows:
        starts = [s for s in row["server_start_seconds"] if s is not None]
        cell = row["cell_seconds"]
        lines.append(
            f"| {row['students']} | {row['ready']} | {percentile(starts, 50):.1f} s | {cell['p50']:.2f} s | {cell['p90']:.2f} s | "
            f"{cell['max']:.2f} s | {row['memory_per_student_pss'] / MB:.0f} MB | {row['memory_per_student_pss_at_once'] / MB:.0f} MB | "
            f"{row['memory_per_student_rss'] / MB:.0f} MB | "
            f"{row['load_before'][0]:.2f} → {row['load_after'][0]:.2f} | "
            f"{row['verdict']} |")
    biggest = rows[-1]
    roles = sorted({r for m in biggest["memory"] for r in m["roles"]})
    lines += [
        "",
        f"Where the memory goes (peak PSS per process role, mean over the students of the N = {biggest['students']} run; "
        "PSS shares pages used by several processes, such as libtorch in every cell host, among them):",
        "",
        "| " + " | ".join(roles) + " |",
        "|" + "---:|" * len(roles),
        "| " + " | ".join(f"{np.mean([m['roles'].get(r, {'pss': 0})['pss'] for m in biggest['memory']]) / MB:.0f} MB"
                          for r in roles) + " |",
        "",
        "Processes of no known role, counted as *other*, by name (command): "
        + (", ".join(f"{name} at N = {', '.join(str(n) for n in ns)}" for name, ns in other_processes(rows).items())
           or "none") + ".",
        "",
        "Cell latency per lesson cell (p50 / p90, seconds from `execute_request` sent to `execute_reply` received, "
        "through the proxy, the student's server and the kernel, including the compile):",
        "",
        "| cell | " + " | ".join(f"N = {r['students']}" for r in rows) + " |",
        "|---|" + "---:|" * len(rows),
    ]
    for label, _ in LESSON:
        lines.append(f"| {label} | " + " | ".join(
            f"{r['per_cell'][label]['p50']:.2f} / {r['per_cell'][label]['p90']:.2f}" for r in rows) + " |")
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


def other_processes(rows):
    """Each name seen as "other", with the class sizes it was seen in."""
    seen = {}
    for row in rows:
        for name in sorted({n for m in row["memory"] for n in m.get("other_processes", [])}):
            seen.setdefault(name, []).append(row["students"])
    return seen


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
