"""A student's processes by role (server, kernel, host, snapshot, parser, compiler, linker,
language server), their memory and CPU time, sampled on a thread of its own; the machine's
available memory."""
import threading
from pathlib import Path

import psutil

from .hub import HubError


ROLES = {
    "benchbook-kernel": "kernel", "benchbook-cell-host": "host", "benchbook-cell-parser": "parser",
    "benchbook-cell-compiler": "compiler",
    "sourcekit-lsp": "language server",
    "swift-frontend": "compiler", "swiftc": "compiler", "swift-driver": "compiler",
    "swift-autolink-extract": "compiler",
    "clang": "linker", "clang-17": "linker", "ld": "linker", "ld.gold": "linker", "ld.lld": "linker", "lld": "linker",
}


def role(process, server_pid):
    """What a process in a student's tree is: server, kernel, host, snapshot (a frozen copy
    the cell host forked after a cell: its parent is a cell host), parser, compiler (the cell
    compiler process, swift-frontend), linker (ld.gold, lld, clang), language server."""
    if process.pid == server_pid:
        return "server"
    name = process.name()
    kind = ROLES.get(name, "linker" if name.startswith(("clang", "ld")) else "other")
    if kind == "host":
        try:
            if process.parent() is not None and process.parent().name() == "benchbook-cell-host":
                return "snapshot"
        except psutil.NoSuchProcess:
            pass
    return kind


class MemorySampler:
    """Samples the students' process trees every `interval` seconds on a thread of its own:
    per student and role, the peak RSS and PSS, and the peak of the student's total; the
    names of processes of no known role ("other") are kept too.

    And the CPU time of every process (user + system, as last sampled), for CPU-seconds per
    role (`cpu_by_role`). A process that lives less than an interval (a cell's link: 5-40 ms)
    is rarely sampled: what the kernel's ended children used (its `children` CPU times) beyond
    what the samples saw of them counts as "linker", the kernel's only short-lived children."""

    def __init__(self, students, interval=0.25):
        self.cpu_seen = {s.name: {} for s in students}   # name -> pid -> {"role", "cpu", "ppid", "reaped"}
        self.alive = {s.name: set() for s in students}
        self.cpu_lock = threading.Lock()
        self.students = students
        self.interval = interval
        self.peak_role = {s.name: {} for s in students}        # name -> role -> {"rss", "pss"}
        self.peak_total = {s.name: {"rss": 0, "pss": 0} for s in students}
        self.other_names = {s.name: set() for s in students}   # what "other" was, by name and command
        self.samples = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.thread.join()

    def loop(self):
        while not self.stopping.is_set():
            self.sample()
            self.stopping.wait(self.interval)

    def sample(self):
        for student in self.students:
            if student.server_pid is None:
                continue
            by_role, others, cpu = usage_by_role(student)
            with self.cpu_lock:
                self.cpu_seen[student.name].update(cpu)
                self.alive[student.name] = set(cpu)
            self.other_names[student.name].update(others)
            peaks = self.peak_role[student.name]
            for kind, entry in by_role.items():
                peak = peaks.setdefault(kind, {"rss": 0, "pss": 0})
                peak["rss"] = max(peak["rss"], entry["rss"])
                peak["pss"] = max(peak["pss"], entry["pss"])
            total = self.peak_total[student.name]
            total["rss"] = max(total["rss"], sum(e["rss"] for e in by_role.values()))
            total["pss"] = max(total["pss"], sum(e["pss"] for e in by_role.values()))
        self.samples += 1


    def cpu_by_role(self, name):
        """A student's CPU-seconds so far by role (see the class's description)."""
        with self.cpu_lock:
            seen = dict(self.cpu_seen[name])
            alive = set(self.alive[name])
        roles = {}
        for entry in seen.values():
            roles[entry["role"]] = roles.get(entry["role"], 0.0) + entry["cpu"]
        for pid, entry in seen.items():
            if entry["role"] != "kernel":
                continue
            ended = sum(e["cpu"] for p, e in seen.items() if e["ppid"] == pid and p not in alive)
            roles["linker"] = roles.get("linker", 0.0) + max(0.0, entry["reaped"] - ended)
        return roles


def usage_by_role(student):
    """A student's memory now, {role: {"rss", "pss"}} summed over its processes; the names
    (command) of processes of no known role; and each process's CPU time so far,
    {pid: {"role", "cpu", "ppid", "reaped"}} ("reaped": its ended children's CPU time)."""
    by_role, others, cpu = {}, set(), {}
    for process in student.process_tree():
        try:
            info = process.memory_full_info()
            times = process.cpu_times()
            kind = role(process, student.server_pid)
            cpu[process.pid] = {"role": kind, "cpu": times.user + times.system, "ppid": process.ppid(),
                                "reaped": times.children_user + times.children_system}
            if kind == "other":
                command = process.cmdline()
                others.add(f"{process.name()} ({Path(command[0]).name if command else 'no command line'})")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        entry = by_role.setdefault(kind, {"rss": 0, "pss": 0})
        entry["rss"] += info.rss
        entry["pss"] += info.pss
    return by_role, others, cpu


def memory_by_role(student):
    """A student's memory now: {role: {"rss", "pss"}} summed over its processes, and the
    names (command) of processes of no known role."""
    by_role, others, _ = usage_by_role(student)
    return by_role, others


def memory_available():
    """MemAvailable from /proc/meminfo, in bytes."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    raise HubError("no MemAvailable in /proc/meminfo")

