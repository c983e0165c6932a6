"""The kernelspec starts benchbook-kernel-launcher, which listens on the kernel's TCP ports
as soon as it starts and then becomes the kernel (exec: same process). Through
jupyter_client: the process is the kernel, its five ports are the launcher's sockets
(descriptors 3-7, made before anything of the kernel's own), nothing the kernel starts holds
them, and whatever the launcher cannot do (a port already taken, a file it cannot read) is
left to the kernel, which says what was wrong."""
import json
import os
import socket
import subprocess

from jupyter_client.kernelspec import KernelSpecManager

from conftest import KERNEL_NAME
from kernel_helpers import run_cell


def kernel_argv0():
    return KernelSpecManager().get_kernel_spec(KERNEL_NAME).argv[0]


def listening_inodes(ports):
    """Socket inode -> port, for the TCP listeners on `ports`."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                port = int(fields[1].rsplit(":", 1)[1], 16)
                if fields[3] == "0A" and port in ports:
                    found[fields[9]] = port
    return found


def socket_descriptors(pid):
    """Socket inode -> descriptor, for the open sockets of `pid`."""
    held = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            held[target[len("socket:["):-1]] = int(fd)
    return held


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    found, pending = [], [pid]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def test_the_launcher_becomes_the_kernel_with_its_sockets(kernel):
    km, kc = kernel
    assert os.path.basename(kernel_argv0()) == "benchbook-kernel-launcher"
    pid = km.provisioner.process.pid
    assert os.path.basename(os.readlink(f"/proc/{pid}/exe")) == "benchbook-kernel"
    reply, _ = run_cell(kc, "let launched = 1")
    assert reply["status"] == "ok"

    ports = {km.shell_port, km.iopub_port, km.stdin_port, km.control_port, km.hb_port}
    listeners = listening_inodes(ports)
    assert sorted(listeners.values()) == sorted(ports), "one listener on each port"
    held = socket_descriptors(pid)
    assert sorted(held[inode] for inode in listeners) == [3, 4, 5, 6, 7], \
        "the kernel listens on the launcher's sockets, not on new ones"
    started = descendants(pid)
    assert started, "the kernel has started its cell host and helpers"
    for child in started:
        try:
            leaked = set(socket_descriptors(child)) & set(listeners)
        except OSError:
            continue  # gone meanwhile
        assert not leaked, f"process {child} holds a kernel port"


def connection_file(tmp_path, shell_port, **fields):
    ports = []
    while len(ports) < 4:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            ports.append(probe.getsockname()[1])
    info = {"shell_port": shell_port, "iopub_port": ports[0], "stdin_port": ports[1], "control_port": ports[2],
            "hb_port": ports[3], "ip": "127.0.0.1", "key": "k", "transport": "tcp",
            "signature_scheme": "hmac-sha256", "kernel_name": KERNEL_NAME, **fields}
    path = tmp_path / "connection.json"
    path.write_text(json.dumps(info))
    return path


def test_a_taken_port_is_left_to_the_kernel_which_names_it(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        path = connection_file(tmp_path, port)
        run = subprocess.run([kernel_argv0(), "-f", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert f"tcp://127.0.0.1:{port}" in run.stderr and "Address already in use" in run.stderr, run.stderr


def test_a_file_the_launcher_cannot_read_is_reported_by_the_kernel(tmp_path):
    path = tmp_path / "connection.json"
    path.write_text('{"shell_port": 1, "ip": ')
    run = subprocess.run([kernel_argv0(), "-f", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert str(path) in run.stderr, run.stderr
