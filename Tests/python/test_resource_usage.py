"""`usage_request` on the control channel (issue 25): ipykernel's fields (hostname, pid,
kernel_cpu, kernel_memory, host_cpu_percent, cpu_count, host_virtual_memory) summed over the
kernel's processes, checked against psutil reading the same process tree, and then fetched
by jupyter-resource-usage's own handler (`/api/metrics/v1/kernel_usage/get_usage/<id>`,
which sends `usage_request` from the Jupyter server, as its JupyterLab panel does).
"""
import json
import socket
import time
import urllib.request
from pathlib import Path

import psutil
import pytest
from jupyter_client import BlockingKernelClient

from benchbook_kit.kernel import complete_from_server, run_cell
from benchbook_kit.servers import jupyter_server

# Connection files and other Jupyter state under each test's folder, not in the home.
pytestmark = pytest.mark.usefixtures("jupyter_directories")

IPYKERNEL_FIELDS = {"hostname", "pid", "kernel_cpu", "kernel_memory", "host_cpu_percent", "cpu_count",
                    "host_virtual_memory"}
BUSY_CELL = "var sum = 0\nfor i in 0..<40_000_000 { sum &+= i }\nprint(sum)"


def usage(kc, timeout=30):
    request = kc.session.msg("usage_request", {})
    kc.control_channel.send(request)
    deadline = time.time() + timeout
    while True:
        reply = kc.control_channel.get_msg(timeout=max(0.1, deadline - time.time()))
        if reply["parent_header"].get("msg_id") == request["header"]["msg_id"]:
            assert reply["msg_type"] == "usage_reply", reply
            return reply["content"]


def kernel_tree(pid):
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def cpu_seconds(processes):
    """User and system time of the processes and of the children they waited for."""
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
        except psutil.NoSuchProcess:
            pass
    return total


def pss(processes):
    total = 0
    for process in processes:
        try:
            total += process.memory_full_info().pss
        except psutil.NoSuchProcess:
            pass
    return total


def test_the_reply_has_ipykernels_fields_for_the_whole_process_tree(kernel):
    km, kc = kernel
    run_cell(kc, 'let words = ["bench", "book"]')
    complete_from_server(kc, "words.jo", 8)   # SourceKit-LSP is running now
    # The host forks its snapshot after the cell; wait for it (a bound only against a hang).
    deadline = time.time() + 30
    while True:
        content = usage(kc)
        live = [p["name"] for p in content["benchbook_processes"] if not p["ended"]]
        if live.count("benchbook-cell-host") >= 2 or time.time() > deadline:
            break
        time.sleep(0.2)
    assert IPYKERNEL_FIELDS <= set(content), content.keys()
    pid = km.provisioner.process.pid
    assert content["pid"] == pid
    assert content["hostname"] == socket.gethostname()
    assert content["cpu_count"] == psutil.cpu_count(logical=True)
    memory = psutil.virtual_memory()._asdict()
    assert set(content["host_virtual_memory"]) == set(memory)
    assert content["host_virtual_memory"]["total"] == memory["total"]
    assert abs(content["host_virtual_memory"]["percent"] - memory["percent"]) < 10
    assert 0 <= content["host_cpu_percent"] <= 100

    names = [p["name"] for p in content["benchbook_processes"] if not p["ended"]]
    for expected in ["benchbook-kernel", "benchbook-cell-host", "benchbook-cell-parser", "benchbook-cell-compiler",
                     "sourcekit-lsp"]:
        assert expected in names, names
    assert names.count("benchbook-cell-host") >= 2, "the host and its snapshot"
    tree = kernel_tree(pid)
    assert sorted(p["pid"] for p in content["benchbook_processes"]) == sorted(p.pid for p in tree)

    # Memory: the PSS of every process in the tree, as psutil reads it right after.
    measured = pss(tree)
    assert abs(content["kernel_memory"] - measured) < 0.1 * measured, (content["kernel_memory"], measured)
    own = psutil.Process(pid).memory_full_info().pss
    assert content["kernel_memory"] > 5 * own, "the host, compiler and language server are counted"


def test_cpu_is_what_the_tree_used_since_the_last_request(kernel):
    km, kc = kernel
    pid = km.provisioner.process.pid
    run_cell(kc, "let warm = 1")
    usage(kc)
    start_cpu, start_time = cpu_seconds(kernel_tree(pid)), time.monotonic()
    reply, _ = run_cell(kc, BUSY_CELL)
    assert reply["status"] == "ok", reply
    content = usage(kc)
    end_cpu, end_time = cpu_seconds(kernel_tree(pid)), time.monotonic()
    expected = (end_cpu - start_cpu) / (end_time - start_time) * 100
    assert expected > 20, f"the busy cell used {end_cpu - start_cpu:.2f} CPU seconds only"
    assert abs(content["kernel_cpu"] - expected) < 0.25 * expected + 2, (content["kernel_cpu"], expected)
    # An idle kernel: close to nothing since the last request.
    time.sleep(1)
    assert usage(kc)["kernel_cpu"] < 15


@pytest.fixture
def server(tmp_path):
    """A Jupyter server with jupyter-resource-usage (its server extension is on once the
    package is installed), on 127.0.0.1 with a token."""
    pytest.importorskip("jupyter_resource_usage")
    with jupyter_server("server", tmp_path) as server:
        yield server.base, server.token, Path(server.env["JUPYTER_RUNTIME_DIR"])


def call(base, token, path, method="GET", body=None):
    request = urllib.request.Request(f"{base}{path}", method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read()
        return json.loads(body) if body else None


def test_jupyter_resource_usage_reads_the_kernel_through_its_own_request(server):
    base, token, runtime = server
    kernel = call(base, token, "/api/kernels", "POST", {"name": "swift"})
    # Run a cell in the server's kernel, through its connection file.
    client = BlockingKernelClient(connection_file=str(runtime / f"kernel-{kernel['id']}.json"))
    client.load_connection_file()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        reply, _ = run_cell(client, BUSY_CELL)
        assert reply["status"] == "ok", reply
    finally:
        client.stop_channels()

    answer = call(base, token, f"/api/metrics/v1/kernel_usage/get_usage/{kernel['id']}")
    content = answer["content"]
    assert "reason" not in content, content   # "not_supported" or "timeout" otherwise
    assert answer["msg_type"] == "usage_reply" and answer["kernel_id"] == kernel["id"]
    assert IPYKERNEL_FIELDS <= set(content), content.keys()
    tree = kernel_tree(content["pid"])
    assert psutil.Process(content["pid"]).name() == "benchbook-kernel"
    measured = pss(tree)
    assert abs(content["kernel_memory"] - measured) < 0.1 * measured, (content["kernel_memory"], measured)
    assert content["kernel_cpu"] > 5, "the busy cell ran since the kernel started"
    # A second request through the handler: CPU since the first one, the kernel idle.
    time.sleep(1)
    again = call(base, token, f"/api/metrics/v1/kernel_usage/get_usage/{kernel['id']}")["content"]
    assert again["kernel_cpu"] < content["kernel_cpu"]
    call(base, token, f"/api/kernels/{kernel['id']}", "DELETE")
