"""The kernel's files and processes over its life, through jupyter_client: a private cell
directory removed at shutdown and on SIGTERM, directories of dead kernels swept at start,
and no orphans when the process that started the kernel is killed (JPY_PARENT_PID), even
with a cell compiling, a cell running and the language server up."""
import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from jupyter_client.manager import KernelManager

from benchbook_kit.kernel import KERNEL_NAME, results, run_cell
from benchbook_kit.waiting import alive, poll_until

SLOW_MARKER = "BENCHBOOK_TEST_SLOW_COMPILE"



def cell_directories(tmpdir, pid=None):
    return sorted(Path(tmpdir).glob(f"benchbook-{pid if pid else '*'}-*"))



@pytest.fixture
def private_tmp(tmp_path):
    """A TMPDIR of the test's own, so the kernel's directory and the sweep are visible."""
    directory = tmp_path / "tmp"
    directory.mkdir()
    return directory


def start(private_tmp, **env):
    km = KernelManager(kernel_name=KERNEL_NAME)
    km.start_kernel(env=dict(os.environ, TMPDIR=str(private_tmp), **env))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def test_the_cell_directory_is_private_and_removed_at_shutdown(private_tmp):
    km, kc = start(private_tmp)
    pid = km.provisioner.process.pid
    try:
        reply, outputs = run_cell(kc, "let secret = 42\nsecret")
        assert results(outputs) == ["42"]
        [directory] = cell_directories(private_tmp, pid)
        info = directory.stat()
        assert stat.S_IMODE(info.st_mode) == 0o700
        assert info.st_uid == os.geteuid()
        assert (directory / "Cell1.swift").exists()
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)   # a shutdown request, as a front end sends it
    assert not km.is_alive()
    assert cell_directories(private_tmp) == []


def test_sigterm_to_the_kernel_alone_stops_host_and_language_server_and_removes_the_directory(private_tmp):
    km, kc = start(private_tmp)
    kernel = psutil.Process(km.provisioner.process.pid)
    try:
        run_cell(kc, "let word = \"bench\"")
        kc.complete("word.", 5, reply=True, timeout=120)   # starts SourceKit-LSP, on a thread of its own
        # The reply comes before the server's process may exist (completion never waits for it).
        children = poll_until(lambda: (lambda found: found if {"sourcekit-lsp"} <= {p.name() for p in found} else None)(
            kernel.children()), timeout=15)
        names = {p.name() for p in children or kernel.children()}
        assert any("cell-host" in n for n in names) and "sourcekit-lsp" in names, names
        os.kill(kernel.pid, signal.SIGTERM)   # only the kernel, not its process group
        assert km.provisioner.process.wait(timeout=10) == 0
        assert poll_until(lambda: not alive(children), timeout=10), alive(children)
        assert cell_directories(private_tmp) == []
    finally:
        kc.stop_channels()
        km.cleanup_resources()


def test_directories_of_dead_kernels_are_swept_at_start(private_tmp):
    finished = subprocess.Popen(["true"])
    finished.wait()
    dead = finished.pid
    gone = private_tmp / f"benchbook-{dead}-Ab12Cd"
    gone.mkdir()
    (gone / "Cell1.swift").write_text("let old = 1\n")
    (gone / "libCell1.so").write_bytes(b"\0" * 1024)
    live = private_tmp / f"benchbook-{os.getpid()}-Live01"       # this test's process is alive
    live.mkdir()
    other_user = private_tmp / f"benchbook-{dead}-Other1"         # not ours: left alone
    other_user.mkdir()
    os.chown(other_user, 65534, 65534)
    unrelated = private_tmp / "benchbook-notes"
    unrelated.mkdir()
    km, kc = start(private_tmp)
    try:
        assert poll_until(lambda: not gone.exists(), timeout=10), "the dead kernel's directory is still there"
        for kept in (live, other_user, unrelated):
            assert kept.exists(), kept
        assert len(cell_directories(private_tmp, km.provisioner.process.pid)) == 1
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_the_connection_file_is_read_once(private_tmp):
    km, kc = start(private_tmp)
    try:
        os.unlink(km.connection_file)   # the kernel does not need it any more
        reply, outputs = run_cell(kc, "21 * 2")
        assert results(outputs) == ["42"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def fake_toolchain(root):
    """The real toolchain, except that swift-frontend hangs (with a child process, as a
    compiler driver has) on a cell containing SLOW_MARKER: a compile in flight on demand."""
    real = Path("/opt/swift/usr")
    bin_dir = root / "usr" / "bin"
    bin_dir.mkdir(parents=True)
    (root / "usr" / "lib").symlink_to(real / "lib")
    for tool in (real / "bin").iterdir():
        if tool.name != "swift-frontend":
            (bin_dir / tool.name).symlink_to(tool)
    wrapper = bin_dir / "swift-frontend"
    wrapper.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        for argument in "$@"; do
          case "$argument" in
            *.swift) if grep -q {SLOW_MARKER} "$argument" 2>/dev/null; then sleep 300 & wait; exit 1; fi ;;
          esac
        done
        exec {real}/bin/swift-frontend "$@"
        """))
    wrapper.chmod(0o755)
    return bin_dir


PARENT = """
import json, sys, time
from jupyter_client.manager import KernelManager
km = KernelManager(kernel_name=sys.argv[1])
km.start_kernel()
kc = km.client(); kc.start_channels(); kc.wait_for_ready(timeout=60)
kc.execute_interactive("let name = \\"bench\\"", timeout=120)
kc.complete("name.", 5, reply=True, timeout=120)
kc.execute(sys.argv[2])
print(json.dumps({"kernel": km.provisioner.process.pid}), flush=True)
time.sleep(600)
"""

# A function of 8,000 statements: many seconds in the compiler.
LONG_COMPILE = "func long() -> Int {\n    var x = 0\n" + "".join(f"    x &+= {i}\n" for i in range(8000)) + "    return x\n}"

LAST_CELLS = {
    # swift-frontend (a stand-in whose child sleeps) is running when the parent dies.
    "compiling with swift-frontend": (f'let slow = "{SLOW_MARKER}"', lambda names: "sleep" in names,
                                      {"BENCHBOOK_COMPILE_SERVER": "0"}),
    # The cell compiler process is compiling a long cell when the parent dies.
    "compiling in the cell compiler": (LONG_COMPILE, lambda names: "benchbook-cell-compiler" in names, {}),
    # The cell host is running a cell when the parent dies.
    "running": ("import Foundation\nThread.sleep(forTimeInterval: 300)", lambda names: True, {}),
}


@pytest.mark.parametrize("last_cell", sorted(LAST_CELLS))
def test_no_orphans_when_the_process_that_started_the_kernel_is_killed(private_tmp, tmp_path, last_cell):
    """A stand-in for a Jupyter server starts the kernel (so JPY_PARENT_PID is its pid), runs
    a cell, starts the language server, sends one more cell, and is killed with SIGKILL."""
    code, busy, settings = LAST_CELLS[last_cell]
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    env = dict(os.environ, TMPDIR=str(private_tmp),
               PATH=f"{fake_toolchain(tmp_path / 'toolchain')}:{os.environ['PATH']}", **settings)
    parent = subprocess.Popen([sys.executable, str(script), KERNEL_NAME, code], stdout=subprocess.PIPE, text=True, env=env)
    kernel = None
    try:
        line = parent.stdout.readline()
        assert line, "the stand-in server did not start the kernel"
        kernel = psutil.Process(json.loads(line)["kernel"])
        assert kernel.ppid() == parent.pid
        assert kernel.environ().get("JPY_PARENT_PID") == str(parent.pid)

        def snapshot():
            processes = [kernel] + kernel.children(recursive=True)
            names = {p.name() for p in processes}
            ready = "sourcekit-lsp" in names and any("cell-host" in n for n in names) and busy(names)
            return processes if ready else None
        processes = poll_until(snapshot, timeout=60)
        assert processes, f"not all of host, language server and the last cell's work seen: {kernel.children(recursive=True)}"
        time.sleep(0.5)

        parent.kill()
        parent.wait(timeout=10)
        assert poll_until(lambda: not alive(processes), timeout=10), f"left running: {alive(processes)}"
        assert cell_directories(private_tmp) == []
    finally:
        parent.kill()
        if kernel is not None:
            for p in [kernel] + (kernel.children(recursive=True) if kernel.is_running() else []):
                try:
                    p.kill()
                except psutil.NoSuchProcess:
                    pass


DETACHING_CELL = r'''
import Glibc
func spawn(_ arguments: [String], newSession: Bool) -> pid_t {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let pid = fork()
    if pid == 0 {
        if newSession { setsid() }
        execv(arguments[0], &argv)
        _exit(127)
    }
    return pid
}
let leader = spawn(["/bin/sleep", "611"], newSession: true)
let launcher = spawn(["/bin/sh", "-c", "setsid /bin/sleep 612 & echo $! > PIDFILE"], newSession: false)
var status: Int32 = 0
waitpid(launcher, &status, 0)
print(leader)
'''


def running_sleeps(pids):
    """The pids still running `sleep` (zombies and reused pids count as gone)."""
    left = []
    for pid in pids:
        try:
            process = psutil.Process(pid)
            if process.status() != psutil.STATUS_ZOMBIE and "sleep" in process.name():
                left.append(pid)
        except psutil.NoSuchProcess:
            pass
    return left


def detached_children(kc, tmp_path):
    """Runs a cell that starts a session leader (fork, setsid) and a double-forked process
    in a session of its own (sh runs `setsid sleep &` and exits); returns their pids."""
    pidfile = tmp_path / "double-forked.pid"
    reply, outputs = run_cell(kc, DETACHING_CELL.replace("PIDFILE", str(pidfile)))
    assert reply["status"] == "ok", (reply, outputs)
    leader = int("".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream").split()[-1])
    double = int(poll_until(lambda: pidfile.exists() and pidfile.read_text().strip(), timeout=15))
    pids = [leader, double]
    # The double-forked one runs `setsid` for a moment before it becomes `sleep`.
    assert poll_until(lambda: running_sleeps(pids) == pids, timeout=10), running_sleeps(pids)
    for pid in pids:
        assert os.getsid(pid) == pid, "each leads a session of its own, outside the host's group"
    return pids


@pytest.mark.parametrize("how", ["shutdown", "restart", "host replaced"])
def test_sessions_a_cell_created_end_with_the_kernel_or_its_host(private_tmp, tmp_path, how):
    """Issue 37, item 7: processes a cell started in sessions of their own (setsid, a double
    fork) end when the kernel shuts down or restarts, or when the host they came from is
    replaced (the host's process group has always ended then)."""
    km, kc = start(private_tmp)
    try:
        pids = detached_children(kc, tmp_path)
        if how == "shutdown":
            km.shutdown_kernel(now=False)   # a shutdown request, as a front end sends it
        elif how == "restart":
            km.restart_kernel(now=False)
            kc.wait_for_ready(timeout=60)
        else:
            msg_id = kc.execute('print("benchbook-test: running")\nimport Dispatch\nDispatchSemaphore(value: 0).wait()')
            while True:
                msg = kc.get_iopub_msg(timeout=60)
                if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
                    break
            kc.control_channel.send(kc.session.msg("interrupt_request", {}))
            reply = kc.get_shell_msg(timeout=60)["content"]
            assert reply["ename"] == "Interrupted", reply
        assert poll_until(lambda: not running_sleeps(pids), timeout=10), running_sleeps(pids)
    finally:
        kc.stop_channels()
        if km.is_alive():
            km.shutdown_kernel(now=True)
        for pid in running_sleeps(pids if "pids" in locals() else []):
            os.kill(pid, signal.SIGKILL)
