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

import pytest

from jupyter_client.kernelspec import KernelSpecManager

from benchbook_kit.kernel import KERNEL_NAME, run_cell
from benchbook_kit.ports import free_ports


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


def raw_connection_file(tmp_path, text):
    path = tmp_path / "connection.json"
    path.write_text(text)
    return path


def start_refused(path):
    """Starts the kernelspec's program on a connection file it must refuse; its stderr."""
    run = subprocess.run([kernel_argv0(), "-f", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, (run.returncode, run.stderr)
    return run.stderr


def fields_text(ports, ip="127.0.0.1", key="k"):
    names = ["shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"]
    return ", ".join(f'"{n}": {p}' for n, p in zip(names, ports)) + \
        f', "ip": "{ip}", "key": "{key}", "transport": "tcp", "signature_scheme": "hmac-sha256"'


@pytest.mark.parametrize("text, field", [
    ('{{{fields}, "key": "second-key"}}', "key"),                    # the kernel read the first, the client the last
    ('{{"ip": "0.0.0.0", {fields}}}', "ip"),
    ('{{"i\\u0070": "0.0.0.0", {fields}}}', "ip"),                    # an escaped name is the same name
    ('{{{fields}, "shell\\u005fport": 1}}', "shell_port"),
])
def test_a_repeated_field_is_refused_and_named(tmp_path, text, field):
    """Issue 37, item 3: jupyter_client keeps the last of two equal names, the kernel read
    the first. One reading (the launcher's, shared by the kernel) refuses the file and
    names the field, however it is written."""
    stderr = start_refused(raw_connection_file(tmp_path, text.format(fields=fields_text(free_ports(5)))))
    assert f"'{field}'" in stderr and "more than once" in stderr, stderr


@pytest.mark.parametrize("port, expected", [
    ("99999999999999999999", "not a port number from 1 to 65535"),
    ("65536", "not a port number from 1 to 65535"),
    ("5555.5", "not a whole number"),
    ("5.5e3", "not a whole number"),
    ('"5555"', "a string, not a number"),
])
def test_a_bad_port_is_named_with_what_is_wrong(tmp_path, port, expected):
    """Issue 37, item 9: these said 'not valid JSON'."""
    ports = free_ports(5)
    text = "{" + fields_text(ports).replace(f'"shell_port": {ports[0]}', f'"shell_port": {port}') + "}"
    stderr = start_refused(raw_connection_file(tmp_path, text))
    assert "'shell_port'" in stderr and expected in stderr, stderr
    assert "not valid JSON" not in stderr, stderr


def test_an_empty_connection_file_says_so():
    """Issue 37, item 9: /dev/null as the connection file said "You don't have permission"
    (as root)."""
    stderr = start_refused("/dev/null")
    assert "/dev/null" in stderr and "is empty" in stderr, stderr
    assert "permission" not in stderr, stderr


def kernel_info_over(endpoint_host, ports, key, ipv6):
    """Sends a signed kernel_info_request to the shell port with pyzmq; the reply or None."""
    import zmq
    from jupyter_client.session import Session
    session = Session(key=key.encode())
    context = zmq.Context.instance()
    shell = context.socket(zmq.DEALER)
    shell.linger = 0
    shell.ipv6 = ipv6
    shell.connect(f"tcp://{endpoint_host}:{ports[0]}")
    try:
        session.send(shell, session.msg("kernel_info_request", {}))
        if not shell.poll(60_000):
            return None
        return session.recv(shell, mode=0)[1]
    finally:
        shell.close()


@pytest.mark.parametrize("ip, connect_to, ipv6", [
    ("::1", "[::1]", True), ("::", "[::1]", True), ("localhost", "127.0.0.1", False),
])
def test_ipv6_and_localhost_addresses_are_served(tmp_path, ip, connect_to, ipv6):
    """Issue 37, item 9: "::1", "::" and "localhost" stopped the kernel with "No such device
    (errno 19)"; an IPv6 address is bound as IPv6, localhost as 127.0.0.1."""
    ports = free_ports(5)
    path = raw_connection_file(tmp_path, "{" + fields_text(ports, ip=ip) + "}")
    kernel = subprocess.Popen([kernel_argv0(), "-f", str(path)], stderr=subprocess.PIPE, text=True)
    try:
        reply = kernel_info_over(connect_to, ports, "k", ipv6)
        assert reply is not None and reply["header"]["msg_type"] == "kernel_info_reply", \
            kernel.poll() is not None and kernel.stderr.read()
    finally:
        kernel.kill()
        kernel.wait()


def test_a_host_name_in_ip_is_refused_by_field(tmp_path):
    stderr = start_refused(raw_connection_file(tmp_path, "{" + fields_text(free_ports(5), ip="no-such-host.invalid") + "}"))
    assert "'ip'" in stderr and "no-such-host.invalid" in stderr and "errno 19" not in stderr, stderr
