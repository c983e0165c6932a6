"""The Swift kernel on a real JupyterHub (PyPI jupyterhub, Debian's configurable-http-proxy,
DummyAuthenticator, SimpleLocalProcessSpawner) on 127.0.0.1: a student's server started
through the Hub's REST API runs Swift cells over the kernel websocket, with CurveZMQ
between server and kernel; stopping the server through the Hub, or killing it, leaves no
kernel, cell host, compiler or language server behind, and no cell directory."""
import glob
import json
import os
import signal
import time
from pathlib import Path

import pytest

from benchbook_kit.hub import Hub, Student, alive, role


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    with Hub(tmp_path_factory.mktemp("hub")) as running:
        yield running


def start_student(hub, name):
    student = Student(hub, name)
    student.start()
    seconds, reply = student.run("cell", 'let words = ["bench", "book"]\nwords.joined()')
    assert reply["status"] == "ok", reply
    assert [o["content"]["data"]["text/plain"] for o in student.outputs if o["msg_type"] == "execute_result"] == ['"benchbook"']
    completion = student.complete_from_server("words.jo")
    assert "joined" in " ".join(completion["matches"])
    tree = student.process_tree()
    roles = {role(p, student.server_pid) for p in tree}
    assert {"server", "kernel", "host", "language server"} <= roles, roles
    kernel = next(p for p in tree if role(p, student.server_pid) == "kernel")
    connection = kernel.cmdline()[kernel.cmdline().index("-f") + 1]
    assert "curve_secretkey" in json.loads(Path(connection).read_text()), "the server did not ask for CurveZMQ"
    return student, tree, kernel.pid


def cell_directories(pid):
    return glob.glob(f"/tmp/benchbook-{pid}-*")


def test_stopping_a_students_server_through_the_hub_leaves_nothing(hub):
    student, tree, kernel_pid = start_student(hub, "ada")
    assert cell_directories(kernel_pid)
    student.close()
    hub.stop_server("ada")
    deadline = time.time() + 15
    while alive(tree) and time.time() < deadline:
        time.sleep(0.2)
    assert not alive(tree), f"left running: {alive(tree)}"
    assert not cell_directories(kernel_pid)


def test_killing_a_students_server_leaves_nothing(hub):
    student, tree, kernel_pid = start_student(hub, "grace")
    student.close()
    os.kill(student.server_pid, signal.SIGKILL)   # no shutdown of its kernels: the kernel must notice
    deadline = time.time() + 15
    while alive(tree) and time.time() < deadline:
        time.sleep(0.2)
    assert not alive(tree), f"left running: {alive(tree)}"
    assert not cell_directories(kernel_pid)


def test_a_student_who_waits_longer_than_the_ping_timeout_keeps_the_kernel(tmp_path):
    """jupyter_server closes a kernel websocket whose pings go unanswered for ws_ping_timeout
    (90 s by default; 5 s here). A student who sends nothing for longer, as a browser tab
    waits between cells, keeps the connection: the client answers the pings while idle.
    (A client that read only while it waited for a reply lost its kernel this way in the
    class benchmark, when the first servers waited for the last to start.)"""
    settings = {"ws_ping_interval": 1000, "ws_ping_timeout": 5000}
    with Hub(tmp_path / "hub", extra_config=f"c.Spawner.args.append({'--ServerApp.tornado_settings=' + json.dumps(settings)!r})") as hub:
        student = Student(hub, "linus")
        student.start()
        try:
            time.sleep(12)
            seconds, reply = student.run("cell", "6 * 7")
            assert reply["status"] == "ok", reply
            assert [o["content"]["data"]["text/plain"] for o in student.outputs if o["msg_type"] == "execute_result"] == ["42"]
            assert student.pings >= 5, f"the server sent {student.pings} pings in 12 s: its ping settings were not used"
            assert "ping timeout" not in (tmp_path / "hub" / "jupyterhub.log").read_text()
        finally:
            student.close()
            hub.stop_server("linus")
