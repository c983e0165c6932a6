"""A class of simulated students on a Hub running the same lesson together, measured: the
lesson, one class's run and what a row of the class and cluster benchmarks holds
(scripts/hub/bench_class.py and scripts/hub/bench_cluster.py write the reports; the first
has the method)."""
import os
import re
import threading
import time

import numpy as np
import psutil

from ..report import table
from ..statistics import percentile
from .hub import HubError
from .processes import MemorySampler, memory_available
from .student import Student

MB = 1024 * 1024

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


def together(action, students):
    """Runs `action(student)` for every student at once, a thread each; returns when all ended."""
    threads = [threading.Thread(target=action, args=(s,)) for s in students]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


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
        together(start, students)
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
                together(cell, ready)
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


def other_processes(rows):
    """Each name seen as "other", with the class sizes it was seen in."""
    seen = {}
    for row in rows:
        for name in sorted({n for m in row["memory"] for n in m.get("other_processes", [])}):
            seen.setdefault(name, []).append(row["students"])
    return seen


def per_cell_table(rows, titles):
    """The lines of the table of each lesson cell's latency, p50 / p90 in seconds, a column a
    class (`titles`, one a row of `rows`)."""
    return table(["cell", *titles], [[label, *(f"{r['per_cell'][label]['p50']:.2f} / {r['per_cell'][label]['p90']:.2f}"
                                               for r in rows)] for label, _ in LESSON],
                 "l" + "r" * len(rows))
