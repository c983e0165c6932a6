"""A class in containers and on bare processes, measured in the same run (make bench-cluster).

    PYTHONPATH=python .venv/bin/python scripts/hub/bench_cluster.py --students 1,2,4,8,16 --cut-students 8 --out results

Part 1, the class: for each N and each spawner in turn (bare processes: the Hub's
SimpleLocalProcessSpawner; containers: deploy/jupyterhub/jupyterhub_config.py, DockerSpawner
with host networking and the per-student limits, the image of `make image`), a fresh Hub; N
students start their servers together and run the lesson of
python/benchbook_kit/hub/classroom.py cell by cell together, twice, with one completion each
(classroom.py has the method). Start time, cell p50/p90 and each role's peak memory per student (server, kernel,
cell host, snapshots, compiler, SourceKit-LSP, cell parser), and for containers the
container's own memory peak (its cgroup: every process and the page cache it touched).

Each class runs twice: without a cell cache (BENCHBOOK_CELL_CACHE=off: every cell compiled)
and with the class cache, which the teacher's step (scripts/hub/warm_cache.py, as `make
warm-cache`) filled first by running the same cells once in a fresh kernel, where the students
run (this checkout's kernel for bare processes, the image for containers), read-only to the
students (mounted read-only by the deploy file). CPU-seconds per student by role, at ready and
for the whole run; each kernel's cache hits (`%cache`). The start storm: at N = --storm-students
with the class cache, the compiler warmed at every kernel's start (BENCHBOOK_COMPILER_WARMUP=always)
against the default (warmed at the first miss).

Part 2, the cuts (optional, --cut-students 8 as on 2026-12-02): at N = --cut-students, each spawner, before (the language server kept
for the kernel's life, the compiler keeping freed memory: BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS=0,
BENCHBOOK_COMPILER_IDLE_TRIM_SECONDS=0) and after (the defaults: stopped after 60 s without
a request, given back after 2 s idle), one after the other. The lesson, then --rest seconds
with nothing to do (students reading), then each role's memory at that instant.

Written to results/cluster-class.{json,md,png}. A measurement, not a test: the machine's load
averages are recorded per row.
"""
import argparse
import json
import os
import platform
import subprocess
import time
from pathlib import Path

import numpy as np

from benchbook_kit import ROOT
from benchbook_kit.hub import Hub, memory_available, memory_by_role
from benchbook_kit.hub.class_cache import warm
from benchbook_kit.hub.classroom import COMPLETION, LESSON, MB, other_processes, per_cell_table, run_class
from benchbook_kit.report import table
from benchbook_kit.hub.docker_engine import docker, ensure
from benchbook_kit.hub.limits import CPU_LIMIT, MEM_LIMIT
from benchbook_kit.statistics import percentile

ROLES = ["server", "kernel", "host", "snapshot", "compiler", "linker", "language server", "parser", "other"]
CPU_ROLES = ["kernel", "parser", "compiler", "linker", "host", "snapshot", "language server", "server", "other"]
CACHES = {"none": "no cache", "class": "class cache"}
CPU_NAMES = {"kernel": "kernel", "parser": "parser", "compiler": "compiler", "linker": "linker", "host": "host",
             "snapshot": "snapshots", "language server": "SourceKit-LSP", "server": "Jupyter server", "other": "other"}
# The start-storm cut: the compiler warmed at every kernel's start (before) or at the first
# cell that misses the cache (after, the default with a class cache).
STORM_BEFORE = {"BENCHBOOK_COMPILER_WARMUP": "always"}
SPAWNERS = {"local": "bare processes", "docker": "containers"}
BEFORE = {"BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS": "0", "BENCHBOOK_COMPILER_IDLE_TRIM_SECONDS": "0"}


def log(text):
    print(text, flush=True)


def cgroup_memory(container):
    """The container's memory cgroup (v1): peak and current usage, and its resident part."""
    base = Path("/sys/fs/cgroup/memory/docker") / container
    if not base.is_dir():
        return None
    stat = dict(line.split() for line in (base / "memory.stat").read_text().splitlines())
    return {"max_usage": int((base / "memory.max_usage_in_bytes").read_text()),
            "usage": int((base / "memory.usage_in_bytes").read_text()),
            "rss": int(stat.get("total_rss", 0)), "cache": int(stat.get("total_cache", 0))}


def at_rest(hub, rest_seconds):
    """After the lesson: wait, then each student's memory by role at that instant (and the
    container's cgroup figures)."""
    def measure(students):
        if rest_seconds:
            log(f"    resting {rest_seconds:.0f} s")
            time.sleep(rest_seconds)
        rows = []
        for student in students:
            by_role, _ = memory_by_role(student)
            row = {"student": student.name, "roles": by_role, "pss": sum(r["pss"] for r in by_role.values())}
            if hub.spawner != "local":
                full = docker("inspect", "--format", "{{.Id}}", hub.container(hub.user(student.name)["servers"][""]["state"]))
                row["cgroup"] = cgroup_memory(full)
            rows.append(row)
        return {"rest_seconds": rest_seconds, "at_rest": rows}
    return measure


def one_class(work, spawner, n, passes, rest_seconds, environment, label, cache="none", class_cache=None):
    """One class: a fresh Hub of `spawner`, N students. `cache`: "none" (every cell compiled,
    BENCHBOOK_CELL_CACHE=off) or "class" (the teacher-warmed `class_cache`, read-only, with each
    student's own cache as by default)."""
    environment = dict(environment)
    hub_environment = {"BENCHBOOK_CLASS_CACHE": str(work / "no-class-cache")}
    if cache == "none":
        environment["BENCHBOOK_CELL_CACHE"] = "off"
    elif spawner == "local":
        environment["BENCHBOOK_CELL_CACHE_READONLY"] = str(class_cache)
    else:
        hub_environment["BENCHBOOK_CLASS_CACHE"] = str(class_cache)   # the deploy file mounts it read-only
    section = "c.Spawner" if spawner == "local" else "c.DockerSpawner"
    extra = f"{section}.environment.update({environment!r})" if environment else ""
    log(f"{label}: N = {n}, {SPAWNERS[spawner]}, {CACHES[cache]}")
    with Hub(work / f"{spawner}-n{n}-{label}-{cache}", spawner=spawner, extra_config=extra,
             environment=hub_environment) as hub:
        row = run_class(hub, n, passes, lambda text: log("  " + text.strip()), at_rest=at_rest(hub, rest_seconds),
                        cache_statistics=True)
    if spawner != "local":
        # The teacher's removal of the students' home volumes (make forget-student).
        for volume in docker("volume", "ls", "-q", "--filter", f"name=benchbook-home-s{n}x").split():
            docker("volume", "rm", volume, check=False)
    row.update(spawner=spawner, label=label, environment=environment, cache=cache)
    roles = role_means(row, "peak")
    log(f"  cell p50 {row['cell_seconds']['p50']:.2f} s p90 {row['cell_seconds']['p90']:.2f} s; "
        f"memory per student {sum(roles.values()) / MB:.0f} MB PSS (role peaks); hit rate {hit_rate(row)}; "
        f"CPU per student {sum(row['cpu_total'].values()):.1f} s; failures {len(row['failures'])}")
    time.sleep(3)
    return row


def tab(row, key):
    """A completion column: p50 in seconds, with how many never listed the member."""
    figures = row.get(key) or {}
    if figures.get("p50") is None:
        return "–"
    never = figures.get("never", 0)
    return f"{figures['p50']:.2f} s" + (f" ({never} never)" if never else "")


def hit_rate(row):
    stats = [s for s in row.get("cache_statistics", []) if s]
    hits, lookups = sum(s["hits"] for s in stats), sum(s["lookups"] for s in stats)
    return f"{hits}/{lookups}" if lookups else "–"


def role_means(row, which):
    """Mean over students of each role's PSS: its peak ("peak") or at rest ("rest")."""
    if which == "peak":
        per_student = [m["roles"] for m in row["memory"]]
        return {r: float(np.mean([s.get(r, {"pss": 0})["pss"] for s in per_student])) for r in ROLES}
    per_student = [m["roles"] for m in row["at_rest"]]
    return {r: float(np.mean([s.get(r, {"pss": 0})["pss"] for s in per_student])) for r in ROLES} if per_student else {}


def cgroup_mean(row, key):
    values = [m["cgroup"][key] for m in row.get("at_rest", []) if m.get("cgroup")]
    return float(np.mean(values)) if values else None


def fmt_mb(value):
    return "–" if value is None else f"{value / MB:.0f}"


def write_markdown(out, record):
    rows, cuts = record["class"], record["cuts"]
    lines = [
        "# A class in containers and on bare processes: the Swift kernel on JupyterHub",
        "",
        f"Measured {record['date']} on this machine: {record['machine']['cpus']} cores, "
        f"{record['machine']['memory_gib']:.0f} GiB, {record['machine']['system']}; JupyterHub {record['versions']['jupyterhub']}, "
        f"dockerspawner {record['versions']['dockerspawner']}, Docker {record['versions']['docker']}; "
        f"image `{record['image']['tag']}` {record['image']['size_bytes'] / 1e9:.2f} GB. Containers: "
        f"DockerSpawner with host networking, {MEM_LIMIT} and {CPU_LIMIT:g} CPU per student "
        "(deploy/jupyterhub/). Bare: SimpleLocalProcessSpawner. CurveZMQ between each server and its kernel in both. "
        "Whatever else ran on the machine shows in each row's load averages (1 min) before and after; "
        f"uptime at the start: `{record['machine']['uptime_before']}`.",
        "",
        f"Command: `{record['command']}`",
        "",
        "## The class",
        "",
        "Memory per student is PSS in MB, each role's peak (mean over the students); *sum* adds the role peaks "
        "(an upper bound: they need not coincide). *cgroup peak* is the container's own high-water mark "
        "(every process and the page cache it touched, what its memory limit is checked against). *other* is a "
        "process of no known role, by name (command): "
        + (", ".join(f"{name} at N = {', '.join(str(n) for n in sorted(set(ns)))}" for name, ns in other_processes(rows).items())
           or "none") + "; `swift-symbolgraph-extract` is the kernel's completion fallback when the build wrote no API index "
        "(the library's API read without SourceKit-LSP), a name cut to 15 characters with no command line a process caught while "
        "it started or ended.",
        "",
    ]
    table_rows = []
    for row in rows:
        roles = role_means(row, "peak")
        starts = [s for s in row["server_start_seconds"] if s is not None]
        cell = row["cell_seconds"]
        table_rows.append([
            str(row['students']), SPAWNERS[row['spawner']], CACHES[row.get('cache', 'none')], hit_rate(row), str(row['ready']),
            f"{percentile(starts, 50) or 0:.1f} s", f"{cell['p50']:.2f} s", f"{cell['p90']:.2f} s", f"{cell['max']:.2f} s",
            tab(row, 'completion_seconds'), tab(row, 'completion_listed_seconds'), *(fmt_mb(roles[r]) for r in ROLES), fmt_mb(sum(roles.values())), fmt_mb(cgroup_mean(row, 'max_usage')),
            f"{row['load_before'][0]:.2f} → {row['load_after'][0]:.2f}", row['verdict']])
    lines += table(["N", "where", "cell cache", "hits", "ready", "start p50", "cell p50", "cell p90", "cell max", "Tab answered p50",
                    "Tab listed p50", "server",
                    "kernel", "host", "snapshots", "compiler", "linker", "SourceKit-LSP", "parser", "other", "sum",
                    "cgroup peak", "load before → after", "result"], table_rows, "rll" + "r" * 19 + "ll")
    lines += [
        "",
        "*Tab answered*: the first answer to one completion request (`" + record.get("completion", "model.cla") + "`) per "
        "student after the lesson's second cell; *Tab listed*: until an answer lists the model's `classify`, the "
        "student pressing Tab again every 0.5 s (the first answer comes at once from the notebook's names and the API "
        "index while SourceKit-LSP starts, which knows no value's type).",
        "",
        "*hits*: cells each student's kernel loaded from a cache, of those it was asked to compile, summed over "
        "the students (`%cache` after the lesson).",
        "",
        "CPU-seconds per student by role (mean over the students): *ready* (from the servers' start requests until "
        "every server and kernel answered) / *first cell* (until the lesson's first cell answered: a kernel's start "
        "goes on after it answers, the cell host loading the library and the runtimes, the compiler warming) / "
        "*whole* (start and lesson). Each process's user + system time as last "
        "sampled (every 0.25 s); *linker* is what the kernel's ended children used beyond what the samples saw of them "
        "(a cell's link lasts 5-40 ms, too short to be sampled; the link is its only such child). *server* is the "
        "student's Jupyter server; the Hub and its proxy are not in it.",
        "",
    ]
    table_rows = []
    for row in rows + record.get("storm", []):
        start, first, total = row.get("cpu_start", {}), row.get("cpu_first_cell", {}), row.get("cpu_total", {})
        cache = CACHES[row.get("cache", "none")] + (" (compiler warmed at start)" if row in record.get("storm", []) else "")
        table_rows.append([str(row['students']), SPAWNERS[row['spawner']], cache,
                           *(f"{start.get(r, 0):.1f} / {first.get(r, 0):.1f} / {total.get(r, 0):.1f}" for r in CPU_ROLES),
                           f"{sum(start.values()):.1f} / {sum(first.values()):.1f} / {sum(total.values()):.1f}"])
    lines += table(["N", "where", "cell cache", *(CPU_NAMES[r] for r in CPU_ROLES), "total"], table_rows,
                   "rll" + "r" * (len(CPU_ROLES) + 1))
    if record.get("storm"):
        lines += ["", "## The start storm: the compiler warmed at start, or at the first miss (same run)", "",
                  "With the class cache, a kernel no longer starts its compiler when it starts (it warms it at the first "
                  "cell that misses the cache). *Before*: `BENCHBOOK_COMPILER_WARMUP=always`, every kernel warms its "
                  "compiler at start as without a cache; *after*: the default. Same N, same class cache.", "",
                  "| N | where | | start p50 | start max | first cell p50 | cell p50 | cell p90 | CPU per student until the first cell answered | compiler peak (MB PSS) | load before → after |",
                  "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        for before in record["storm"]:
            after = next((r for r in rows if r["students"] == before["students"] and r["spawner"] == before["spawner"]
                          and r.get("cache") == "class"), None)
            for name, row in (("before", before), ("after", after)):
                if row is None:
                    continue
                starts = [s for s in row["server_start_seconds"] if s is not None]
                lines.append(f"| {row['students']} | {SPAWNERS[row['spawner']]} | {name} | {percentile(starts, 50) or 0:.1f} s | "
                             f"{max(starts, default=0):.1f} s | {row['per_cell'][LESSON[0][0]]['p50']:.2f} s | "
                             f"{row['cell_seconds']['p50']:.2f} s | {row['cell_seconds']['p90']:.2f} s | "
                             f"{sum(row.get('cpu_first_cell', {}).values()):.1f} s | {fmt_mb(role_means(row, 'peak')['compiler'])} | "
                             f"{row['load_before'][0]:.2f} → {row['load_after'][0]:.2f} |")
    lines += [
        "",
        "Cell latency per lesson cell, p50 / p90 in seconds (execute_request sent to execute_reply received, "
        "through the proxy, the student's server and the kernel, compile or cache included):",
        "",
        *per_cell_table(rows, [f"N = {r['students']} {'bare' if r['spawner'] == 'local' else 'cont.'}"
                               f"{', cache' if r.get('cache') == 'class' else ''}" for r in rows]),
    ]
    if not cuts:
        failures = [f"{r['spawner']} N={r['students']} {r.get('cache')} {r['label']}: {f}" for r in rows + record.get("storm", []) for f in r["failures"]]
        lines += ["", "Failures: " + ("none." if not failures else "; ".join(failures[:20])), "",
                  "Reading it: " + record["reading"], ""]
        (out / "cluster-class.md").write_text("\n".join(lines))
        return
    lines += [
        "",
        "## The cuts: memory between cells, before and after (same run)",
        "",
        f"N = {record['cut_students']}; after the lesson nothing runs for {record['rest_seconds']:.0f} s (students reading), "
        "then each role's PSS at that instant (MB, mean over the students). *Before*: "
        + ", ".join(f"`{k}={v}`" for k, v in BEFORE.items())
        + " (the language server lives as long as the kernel; the compiler keeps freed memory for the next compile). "
        "*After*: the defaults (SourceKit-LSP stopped 60 s after its last request and started again on the next "
        "completion; the compiler gives freed memory back after 2 s without a request).",
        "",
        "| where | | cell p50 | cell p90 | completion p50 | compiler at rest | SourceKit-LSP at rest | whole student at rest | cgroup at rest (rss) | peak, sum of roles | load before → after |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in cuts:
        rest = role_means(row, "rest")
        lines.append(
            f"| {SPAWNERS[row['spawner']]} | {row['label']} | {row['cell_seconds']['p50']:.2f} s | {row['cell_seconds']['p90']:.2f} s | "
            f"{row['completion_seconds']['p50'] or 0:.2f} s | {fmt_mb(rest['compiler'])} | {fmt_mb(rest['language server'])} | "
            f"{fmt_mb(sum(rest.values()))} | "
            f"{fmt_mb(cgroup_mean(row, 'usage'))} ({fmt_mb(cgroup_mean(row, 'rss'))}) | "
            f"{fmt_mb(sum(role_means(row, 'peak').values()))} | {row['load_before'][0]:.2f} → {row['load_after'][0]:.2f} |")
    failures = [f"{r['spawner']} N={r['students']} {r['label']}: {f}" for r in rows + cuts for f in r["failures"]]
    lines += ["", "Failures: " + ("none." if not failures else "; ".join(failures[:20])), "",
              "Reading it: " + record["reading"], ""]
    (out / "cluster-class.md").write_text("\n".join(lines))


def reading(record):
    rows, cuts = record["class"], record["cuts"]
    text = []
    for spawner in SPAWNERS:
        for cache in CACHES:
            mine = [r for r in rows if r["spawner"] == spawner and r.get("cache", "none") == cache]
            working = [r["students"] for r in mine if r["verdict"] == "works"]
            if mine:
                text.append(f"{SPAWNERS[spawner]}, {CACHES[cache]}: cell p90 " + ", ".join(
                    f"{r['cell_seconds']['p90']:.1f} s at N = {r['students']}" for r in mine)
                    + "; start p50 " + ", ".join(
                    f"{percentile([x for x in r['server_start_seconds'] if x is not None], 50) or 0:.1f} s" for r in mine)
                    + (f"; every cell ran with p90 under {record['p90_limit']:g} s up to N = {max(working)}" if working else "")
                    + ".")
    pairs = {}
    for row in cuts:
        pairs.setdefault(row["spawner"], {})[row["label"]] = row
    for spawner, pair in pairs.items():
        if "before" in pair and "after" in pair:
            before, after = (sum(role_means(pair[k], "rest").values()) for k in ("before", "after"))
            lsp = [role_means(pair[k], "rest")["language server"] for k in ("before", "after")]
            comp = [role_means(pair[k], "rest")["compiler"] for k in ("before", "after")]
            text.append(f"The cuts, {SPAWNERS[spawner]}: a resting student {before / MB:.0f} → {after / MB:.0f} MB PSS "
                        f"(SourceKit-LSP {lsp[0] / MB:.0f} → {lsp[1] / MB:.0f}, compiler {comp[0] / MB:.0f} → {comp[1] / MB:.0f}); "
                        f"cell p90 {pair['before']['cell_seconds']['p90']:.2f} → {pair['after']['cell_seconds']['p90']:.2f} s.")
    return " ".join(text)


def plot(out, record):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = record["class"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(17, 6))
    bars = [(r, role_means(r, "peak")) for r in rows]
    labels = [f"{r['students']}\n{'bare' if r['spawner'] == 'local' else 'cont.'}{chr(10) + 'cache' if r.get('cache') == 'class' else ''}"
              for r, _ in bars]
    bottom = np.zeros(len(bars))
    for name in ROLES:
        values = np.array([roles[name] / MB for _, roles in bars])
        if values.any():
            left.bar(labels, values, bottom=bottom, label=name)
            bottom += values
    cgroups = [cgroup_mean(r, "max_usage") for r, _ in bars]
    xs = [i for i, v in enumerate(cgroups) if v]
    if xs:
        left.plot(xs, [cgroups[i] / MB for i in xs], "kD", label="container cgroup peak")
    left.set_ylim(0, max(max(bottom), max([c / MB for c in cgroups if c] or [0])) * 1.4)
    left.set_xlabel("students (N), bare processes or containers, without or with the class cache")
    left.set_ylabel("MB (PSS) per student")
    left.set_title("Memory per student: each role's peak, stacked")
    left.legend(fontsize=8, ncol=3, loc="upper left")
    for spawner, marker in (("local", "o"), ("docker", "s")):
        for cache in CACHES:
            mine = [r for r in rows if r["spawner"] == spawner and r.get("cache", "none") == cache]
            if not mine:
                continue
            ns = [r["students"] for r in mine]
            right.plot(ns, [r["cell_seconds"]["p90"] for r in mine], marker + ("-" if cache == "none" else ":"),
                       label=f"p90, {SPAWNERS[spawner]}, {CACHES[cache]}")
    right.set_yscale("log")
    right.axhline(record["p90_limit"], color="grey", linestyle=":", linewidth=1, label=f"p90 limit ({record['p90_limit']:g} s)")
    ns = sorted({r["students"] for r in rows})
    right.set_xscale("log", base=2)
    right.set_xticks(ns, [str(n) for n in ns])
    right.set_xlabel(f"students (N) on {record['machine']['cpus']} cores")
    right.set_ylabel("seconds, execute_request to execute_reply")
    right.set_title("Cell latency over all lesson cells")
    right.grid(alpha=0.3)
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "cluster-class.png", dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", default="1,2,4,8,16")
    parser.add_argument("--spawners", default="local,docker", help="local (bare processes), docker (containers)")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--caches", default="none,class", help="none (every cell compiled), class (the teacher-warmed class cache)")
    parser.add_argument("--storm-students", type=int, default=16, help="class size of the start-storm comparison (0: none)")
    parser.add_argument("--cut-students", type=int, default=8, help="class size of the before/after runs (0: none)")
    parser.add_argument("--rest", type=float, default=70.0, help="seconds of rest before the at-rest memory in the cuts")
    parser.add_argument("--p90-limit", type=float, default=10.0)
    parser.add_argument("--out", default=str(ROOT / "results"))
    parser.add_argument("--render", metavar="JSON", help="measure nothing: write the .md and .png of this record again")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.render:
        record = json.loads(Path(args.render).read_text())
        record["reading"] = reading(record)
        write_markdown(out, record)
        plot(out, record)
        log(f"wrote {out}/cluster-class.md, .png from {args.render}")
        return
    work = Path(os.environ.get("TMPDIR", "/tmp")) / f"benchbook-cluster-{os.getpid()}"
    spawners = args.spawners.split(",")
    ensure()
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    log(f"uptime: {uptime}")
    log(f"logs: {work}/<spawner>-n<N>-<label>/ (the Hub's jupyterhub.log, with the bare servers' output; "
        "each container's output as <student>.log)")
    started = time.time()
    caches = args.caches.split(",")
    class_caches = {}
    if "class" in caches:
        # The teacher's step, in each place students run: the lesson's cells (every pass, in
        # order, in one fresh kernel) into a class cache, then made read-only.
        for spawner in spawners:
            directory = work / f"class-cache-{spawner}"
            log(f"warming the class cache for {SPAWNERS[spawner]}: {directory}")
            warm(directory, notebooks=[], cells=[[code for _ in range(args.passes) for _, code in LESSON]],
                 bare=spawner == "local", log=lambda text: log("  " + text))
            class_caches[spawner] = directory
    rows = []
    memory_per_student = 800 * MB
    for n in [int(x) for x in args.students.split(",")]:
        for spawner in spawners:
            for cache in caches:
                available = memory_available()
                if available < n * memory_per_student:
                    log(f"skipped N = {n}, {SPAWNERS[spawner]}, {CACHES[cache]}: {available / MB:.0f} MB available, "
                        f"under {n} x {memory_per_student / MB:.0f} MB")
                    continue
                row = one_class(work, spawner, n, args.passes, 0, {}, "class", cache, class_caches.get(spawner))
                row["verdict"] = ("breaks" if row["failures"] else
                                  "too slow" if row["cell_seconds"]["p90"] > args.p90_limit else "works")
                rows.append(row)
    storm = []
    if args.storm_students and "class" in caches:
        for spawner in spawners:
            storm.append(one_class(work, spawner, args.storm_students, args.passes, 0, STORM_BEFORE, "storm-before",
                                   "class", class_caches[spawner]))
    cuts = []
    if args.cut_students:
        for spawner in spawners:
            for label, environment in (("before", BEFORE), ("after", {})):
                cuts.append(one_class(work, spawner, args.cut_students, args.passes, args.rest, environment, label))
    import dockerspawner
    import jupyterhub
    image = json.loads((ROOT / ".build" / "image" / "image.json").read_text())
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024 ** 3
    command = (f"make bench-cluster (scripts/hub/bench_cluster.py --students {args.students} --spawners {args.spawners} "
               f"--caches {args.caches} --passes {args.passes} --storm-students {args.storm_students} "
               f"--cut-students {args.cut_students} --rest {args.rest:g})")
    record = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "command": command,
        "seconds": round(time.time() - started),
        "machine": {"cpus": os.cpu_count(), "memory_gib": memory_gib, "system": f"{platform.system()} {platform.release()}",
                    "uptime_before": uptime,
                    "uptime_after": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()},
        "versions": {"jupyterhub": jupyterhub.__version__, "dockerspawner": dockerspawner.__version__,
                     "docker": docker("version", "--format", "{{.Server.Version}}")},
        "image": image, "limits": {"mem_limit": MEM_LIMIT, "cpu_limit": CPU_LIMIT},
        "passes": args.passes, "p90_limit": args.p90_limit, "lesson": LESSON, "completion": COMPLETION,
        "cut_students": args.cut_students, "rest_seconds": args.rest, "before": BEFORE,
        "class": rows, "cuts": cuts, "storm": storm, "logs": str(work),
    }
    record["reading"] = reading(record)
    (out / "cluster-class.json").write_text(json.dumps(record, indent=1) + "\n")
    write_markdown(out, record)
    plot(out, record)
    log(f"wrote {out}/cluster-class.json, .md, .png in {record['seconds']} s; uptime: {record['machine']['uptime_after']}")


if __name__ == "__main__":
    main()
