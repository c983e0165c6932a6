"""A class on Docker: JupyterHub with DockerSpawner (host networking) and with SwarmSpawner
on a one-node swarm, both from deploy/jupyterhub/, both with the single-user image of
`make image` and the per-student limits of deploy/jupyterhub/benchbook_limits.py.

For each: a student's server starts in a container through the Hub's REST API, with the
memory and CPU limits set on it; Swift cells run over the kernel websocket as the
unprivileged user (the notebook library, a model, a chart); a widget comm goes both ways;
a trapped cell keeps the variables of earlier cells; the class's cell cache (warmed by the
teacher's step, scripts/hub/warm_cache.py) serves the first cell and cannot be written; the
server is stopped through the Hub and leaves no container (or service) and no process, but the
student's home volume, with the notebook the student saved, which is there again when the
server starts again; the teacher's removal of that volume leaves nothing.

Needs the engine (scripts/hub/docker_engine.py installs and starts it) and the image
(`make image`); `make test-cluster` does both first.
"""
import re
import time
from pathlib import Path

import psutil
import pytest

from benchbook_kit.hub import Hub, Student, alive, role
from benchbook_kit.hub.class_cache import warm
from benchbook_kit.hub.docker_engine import docker, ensure
from benchbook_kit.hub.limits import CPU_LIMIT, MEM_LIMIT

IMAGE = "benchbook-singleuser:latest"
STUDENT_UID = 1000


def bytes_of(text):
    units = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


@pytest.fixture(scope="module")
def engine():
    ensure()
    if not docker("images", "-q", IMAGE):
        pytest.fail(f"{IMAGE} is missing: run `make image` (make test-cluster does)")


def test_the_images_server_builds_no_iri_parsers(engine):
    """The image's venv has no rfc3987-syntax (deploy/jupyterhub/Dockerfile): its import would
    build Lark parsers for jsonschema's `iri` formats in every student's server start."""
    imported = docker("run", "--rm", "--entrypoint", "/opt/benchbook/.venv/bin/python", IMAGE, "-c",
                      "import sys, jupyter_server.serverapp, jupyterhub.singleuser, nbformat; "
                      "print('rfc3987_syntax' in sys.modules)")
    assert imported == "False"


@pytest.fixture(scope="module")
def swarm(engine):
    """A one-node swarm on the loopback; left again afterwards if it was made here."""
    state = docker("info", "--format", "{{.Swarm.LocalNodeState}}")
    made = state != "active"
    if made:
        docker("swarm", "init", "--advertise-addr", "127.0.0.1", "--listen-addr", "127.0.0.1:2377")
    yield
    if made:
        docker("swarm", "leave", "--force")


def leftovers(prefix):
    return {
        "containers": docker("ps", "-a", "-q", "--filter", f"name={prefix}"),
        "services": docker("service", "ls", "-q", "--filter", f"name={prefix}", check=False)
        if docker("info", "--format", "{{.Swarm.LocalNodeState}}") == "active" else "",
    }


def run_lesson(student):
    """Cells a student runs: library, model, chart, widget comm, a trap; asserts each."""
    seconds, reply = student.run("cell", 'let words = ["bench", "book"]\nwords.joined()')
    assert reply["status"] == "ok", reply
    assert [o["content"]["data"]["text/plain"] for o in student.outputs if o["msg_type"] == "execute_result"] == ['"benchbook"']

    seconds, reply = student.run("model", 'let sample = try Image(contentsOfFile: "data/sample_ankle_boot.png")\n'
                                          'let model = try Model(contentsOf: "models/fashion_cnn.ptl")\n'
                                          'let input = try sample.tensor(normalization: .unit, layout: .nchw)\n'
                                          'try model.classify(input).top.label')
    assert reply["status"] == "ok", reply
    assert [o["content"]["data"]["text/plain"] for o in student.outputs if o["msg_type"] == "execute_result"] == ['"Ankle boot"']

    seconds, reply = student.run("chart", 'ProbabilityChart(probabilities: try model.run(input).softmax().floats, '
                                          'labels: model.labels ?? FashionMNIST.classNames, title: "p")')
    assert reply["status"] == "ok", reply
    pngs = [o for o in student.outputs if o["msg_type"] in ("execute_result", "display_data") and "image/png" in o["content"]["data"]]
    assert pngs, student.outputs

    # A widget: the kernel opens its comm; an update from the front end is echoed and observed.
    seconds, reply = student.run("widget", 'let s = IntSlider(value: 3, range: 0...10)\ns.observe { print("now", $0) }\ns')
    assert reply["status"] == "ok", reply
    [opened] = [o for o in student.outputs if o["msg_type"] == "comm_open"
                and o["content"]["data"]["state"].get("_model_name") == "IntSliderModel"]
    update = {"method": "update", "state": {"value": 7}, "buffer_paths": []}
    answer = student.comm("comm_msg", {"comm_id": opened["content"]["comm_id"], "data": update})
    assert any(m["msg_type"] == "comm_msg" and m["content"]["data"]["method"] == "echo_update" for m in answer), answer
    assert "now 7\n" in "".join(m["content"].get("text", "") for m in answer if m["msg_type"] == "stream")

    # A trap ends only the cell host; the snapshot from before the cell keeps every variable.
    seconds, reply = student.run("trap", "let numbers = [1, 2]\nprint(numbers[5])")
    assert reply["status"] == "error" and "Index out of range" in reply["evalue"], reply
    seconds, reply = student.run("after", 'print(words.count, s.value, model.labels?.count ?? 0)')
    assert reply["status"] == "ok", reply
    assert "".join(o["content"].get("text", "") for o in student.outputs if o["msg_type"] == "stream") == "2 7 10\n"

    # The first Tab is answered at once from the notebook's names while SourceKit-LSP
    # starts; the student presses Tab again until the server lists `words`'s members.
    completion = student.complete_from_server("words.jo")
    assert "joined" in " ".join(completion["matches"]), completion


def check_limits(hub, student):
    state = hub.user(student.name)["servers"][""]["state"]
    container = hub.container(state)
    memory, nano_cpus, quota, period = docker("inspect", "--format",
                                              "{{.HostConfig.Memory}} {{.HostConfig.NanoCpus}} {{.HostConfig.CpuQuota}} "
                                              "{{.HostConfig.CpuPeriod}}", container).split()
    assert int(memory) == bytes_of(MEM_LIMIT)
    cpus = int(nano_cpus) / 1e9 if int(nano_cpus) else int(quota) / int(period)
    assert cpus == pytest.approx(CPU_LIMIT)
    # What the kernel enforces: the container's cgroups (v1 on this machine kind).
    full = docker("inspect", "--format", "{{.Id}}", container)
    cgroup = Path("/sys/fs/cgroup")
    if (cgroup / "memory" / "docker" / full).is_dir():
        assert int((cgroup / "memory" / "docker" / full / "memory.limit_in_bytes").read_text()) == bytes_of(MEM_LIMIT)
        quota = int((cgroup / "cpu" / "docker" / full / "cpu.cfs_quota_us").read_text())
        period = int((cgroup / "cpu" / "docker" / full / "cpu.cfs_period_us").read_text())
        assert quota / period == pytest.approx(CPU_LIMIT)
    return container


FIRST_CELL = 'let words = ["bench", "book"]\nwords.joined()'


@pytest.fixture(scope="module")
def class_cache(engine, tmp_path_factory):
    """A class cache warmed in the image with the lesson's first cell, as the teacher's step does."""
    directory = tmp_path_factory.mktemp("class") / "cache"
    warm(directory, notebooks=[], cells=[[FIRST_CELL]])
    assert list(directory.rglob("manifest")), "the teacher's run stored nothing"
    return directory


def save_notebook(student, name, text):
    notebook = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": text}], "metadata": {},
                "nbformat": 4, "nbformat_minor": 5}
    response = student.hub.session.put(f"{student.base}/api/contents/{name}", timeout=60,
                                       json={"type": "notebook", "format": "json", "content": notebook})
    assert response.status_code in (200, 201), response.text


def saved_notebook(student, name):
    response = student.hub.session.get(f"{student.base}/api/contents/{name}", timeout=60)
    return response.json()["content"]["cells"][0]["source"] if response.status_code == 200 else None


def check_class_cache(student):
    """The first cell came from the class cache; the cache is read-only in the container."""
    seconds, reply = student.run("cache", "%cache")
    text = "".join(o["content"].get("text", "") for o in student.outputs if o["msg_type"] == "stream")
    assert re.search(r"[0-9]+ of [0-9]+ compiles found in the cache \(1 in a shared cache\)", text), text
    assert "/opt/benchbook/class-cache" in text, text
    seconds, reply = student.run("write", 'import Foundation\n'
                                          'print(FileManager.default.createFile(atPath: "/opt/benchbook/class-cache/x", contents: nil))')
    assert "".join(o["content"].get("text", "") for o in student.outputs if o["msg_type"] == "stream") == "false\n"


@pytest.mark.parametrize("spawner", ["docker", "swarm"])
def test_a_student_in_a_container(spawner, engine, class_cache, request, tmp_path):
    if spawner == "swarm":
        request.getfixturevalue("swarm")
    volumes_before = set(docker("volume", "ls", "-q").split())
    home = "benchbook-home-ada"
    if home in volumes_before:
        docker("volume", "rm", home)
        volumes_before.discard(home)
    with Hub(tmp_path / "hub", spawner=spawner, environment={"BENCHBOOK_CLASS_CACHE": str(class_cache)}) as hub:
        student = Student(hub, "ada")
        student.start()
        try:
            container = check_limits(hub, student)
            tree = student.process_tree()
            roles = {role(p, student.server_pid) for p in tree}
            assert {"server", "kernel", "host"} <= roles, roles
            # Every process of the student runs as the image's unprivileged user.
            assert {p.uids().real for p in tree} == {STUDENT_UID}, [(p.name(), p.uids()) for p in tree]
            run_lesson(student)
            check_class_cache(student)
            save_notebook(student, "mine.ipynb", "my notes, saved")
            tree = student.process_tree()     # with the host that replaced the trapped one
            assert {"kernel", "host", "compiler", "language server"} <= {role(p, student.server_pid) for p in tree}
        finally:
            student.close()
        hub.stop_server("ada")
        deadline = time.time() + 60
        while (alive(tree) or any(leftovers(hub.container_prefix).values())) and time.time() < deadline:
            time.sleep(0.5)
        assert not alive(tree), f"left running: {alive(tree)}"
        assert not any(leftovers(hub.container_prefix).values()), leftovers(hub.container_prefix)
        assert not docker("ps", "-a", "-q", "--filter", f"id={container}")
        # The student's home outlives the server: started again, the saved notebook is there.
        assert home in docker("volume", "ls", "-q").split()
        again = Student(hub, "ada")
        again.start()
        try:
            assert saved_notebook(again, "mine.ipynb") == "my notes, saved"
        finally:
            again.close()
        hub.stop_server("ada")
        wait = time.time() + 60
        while any(leftovers(hub.container_prefix).values()) and time.time() < wait:
            time.sleep(0.5)
    # The teacher's explicit removal (make forget-student STUDENT=ada) is what removes it.
    docker("volume", "rm", home)
    assert set(docker("volume", "ls", "-q").split()) <= volumes_before, "a volume was left"
