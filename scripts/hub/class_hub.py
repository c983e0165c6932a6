"""A JupyterHub on 127.0.0.1 with the Swift kernel, and simulated students that use it the
way JupyterLab does: through the Hub's REST API and the single-user server's REST and
kernel websocket API. Used by Tests/python/test_hub.py, Tests/python/test_cluster.py and
scripts/hub/bench_class.py.

The Hub is PyPI's `jupyterhub` with Debian's `configurable-http-proxy` (it needs
NODE_PATH=/usr/share/nodejs when `node` is not Debian's) and DummyAuthenticator. Its
spawner is one of:
- "local": SimpleLocalProcessSpawner (every student's server runs as this user, with its
  own HOME under the Hub's directory, and finds the Swift kernelspec through JUPYTER_PATH);
- "docker": deploy/jupyterhub/jupyterhub_config.py (DockerSpawner, host networking, the
  single-user image of `make image`);
- "swarm": deploy/jupyterhub/jupyterhub_swarm_config.py (SwarmSpawner on a swarm).
For the last two the deploy file is loaded as it is and only the Hub's ports, files, the
service token and the loopback addresses are set here.
"""
import json
import os
import queue
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import struct
import time
import uuid
from pathlib import Path

import psutil
import requests
import websocket
from jupyter_client.kernelspec import KernelSpecManager

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docker_engine import DOCKER, docker  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
NODE_PATH = "/usr/share/nodejs"


class HubError(RuntimeError):
    """The Hub or a student's server did not do what was asked; the message says what."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, timeout, what, interval=0.2):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise HubError(f"timed out after {timeout:.0f} s waiting for {what}")


# The lines every Hub of this module has: loopback addresses, its own files, and the
# "class" service whose token the tests and benchmarks use.
HUB = """\
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.command = ["{proxy}"]
c.ConfigurableHTTPProxy.pid_file = "{directory}/proxy.pid"
c.JupyterHub.db_url = "sqlite:///{directory}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{directory}/cookie_secret"
"""
SERVICE = """\
{extra}
c.JupyterHub.services = [{{"name": "class", "api_token": "{token}"}}]
c.JupyterHub.load_roles = [{{
    "name": "class",
    "scopes": ["admin:users", "admin:servers", "admin:server_state", "access:servers", "list:users", "read:users"],
    "services": ["class"],
}}]
"""

CONFIG = "c = get_config()  # noqa\n" + HUB + """\
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{directory}/home/{{username}}"
c.Spawner.cmd = ["{singleuser}"]
c.Spawner.args = {args!r}
c.Spawner.environment = {environment!r}
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
""" + SERVICE


DEPLOY_CONFIGS = {"docker": ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py",
                  "swarm": ROOT / "deploy" / "jupyterhub" / "jupyterhub_swarm_config.py"}

CONTAINER_CONFIG = "c = get_config()  # noqa\nload_subconfig(\"{deploy}\")\n" + HUB + """\
c.JupyterHub.hub_connect_ip = "127.0.0.1"
for section in (c.DockerSpawner, c.SwarmSpawner):
    section.ip = "127.0.0.1"
    section.name_template = "{prefix}-{{username}}"
    section.image = "{image}"
""" + SERVICE


class Hub:
    """A JupyterHub process in a directory of its own; a context manager.

    `spawner`: "local", "docker" or "swarm" (see the module's description); `image` is the
    single-user image of the last two, `extra_config` lines of Python added to the Hub's
    configuration (limits, for example), `environment` variables of the Hub's process (the
    deploy files read BENCHBOOK_CLASS_CACHE there)."""

    def __init__(self, directory, kernel_name="swift", notebook_dir=ROOT / "notebooks", encryption="required",
                 spawner="local", image="benchbook-singleuser:latest", extra_config="", environment=None):
        self.spawner = spawner
        self.environment = environment or {}
        self.image = image
        self.extra_config = extra_config
        self.directory = Path(directory)
        self.kernel_name = kernel_name
        self.notebook_dir = Path(notebook_dir)
        self.encryption = encryption
        self.token = secrets.token_hex(32)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"token {self.token}"

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        proxy = shutil.which("configurable-http-proxy")
        if proxy is None:
            raise HubError("configurable-http-proxy is missing: `apt-get install node-configurable-http-proxy` "
                           "(scripts/apt-packages.txt has it)")
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.spawner == "local":
            spec = KernelSpecManager().get_kernel_spec(self.kernel_name)
            # The directory that holds kernels/<name>/ is what JUPYTER_PATH needs.
            jupyter_path = str(Path(spec.resource_dir).parent.parent)
            args = ["--allow-root", f"--ServerApp.root_dir={self.notebook_dir}",
                    f"--KernelManager.transport_encryption={self.encryption}"]
            environment = {"JUPYTER_PATH": jupyter_path, "PATH": f"/opt/swift/usr/bin:{os.environ.get('PATH', '')}"}
            config = CONFIG.format(
                port=self.port, hub_port=free_port(), proxy_api_port=free_port(), proxy=proxy, directory=self.directory,
                singleuser=VENV_BIN / "jupyterhub-singleuser", args=args, environment=environment, token=self.token,
                extra=self.extra_config)
        else:
            # Containers of this Hub are named after its port, so two Hubs never share one.
            self.container_prefix = f"benchbook-hub{self.port}"
            config = CONTAINER_CONFIG.format(
                deploy=DEPLOY_CONFIGS[self.spawner], port=self.port, hub_port=free_port(), proxy_api_port=free_port(),
                proxy=proxy, directory=self.directory, prefix=self.container_prefix, image=self.image,
                extra=self.extra_config, token=self.token)
        (self.directory / "jupyterhub_config.py").write_text(config)
        env = dict(os.environ, NODE_PATH=NODE_PATH, PATH=f"{VENV_BIN}:{os.environ.get('PATH', '')}", **self.environment)
        self.log = open(self.directory / "jupyterhub.log", "w")
        self.process = subprocess.Popen([str(VENV_BIN / "jupyterhub"), "-f", "jupyterhub_config.py"],
                                        cwd=self.directory, stdout=self.log, stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)

        def answers():
            if self.process.poll() is not None:
                raise HubError(f"jupyterhub exited with {self.process.returncode}; see {self.log.name}")
            try:
                return self.session.get(f"{self.url}/hub/api/", timeout=2).status_code == 200
            except requests.ConnectionError:
                return False
        wait_for(answers, 90, "the Hub's API")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)   # the Hub stops the servers it started (cleanup_servers)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.process:
            self.log.close()

    def processes(self):
        """The Hub and its proxy (not the students' servers)."""
        hub = psutil.Process(self.process.pid)
        found = [hub]
        for p in hub.children(recursive=True):
            try:
                if "configurable-http-proxy" in " ".join(p.cmdline()) or p.name() == "node":
                    found.append(p)
            except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
                pass   # a student's server that has just ended
        return found

    # --- Hub REST API ------------------------------------------------------------------

    def api(self, method, path, expected=(200, 201, 202, 204), **kwargs):
        response = self.session.request(method, f"{self.url}/hub/api{path}", timeout=60, **kwargs)
        if response.status_code not in expected:
            raise HubError(f"{method} /hub/api{path}: {response.status_code} {response.text[:300]}")
        return response.json() if response.content else None

    def user(self, name):
        return self.api("GET", f"/users/{name}")

    def start_server(self, name, timeout=180):
        """Creates the user if needed, starts the server and waits until it is ready.
        Returns the server's pid."""
        if self.session.get(f"{self.url}/hub/api/users/{name}", timeout=30).status_code == 404:
            self.api("POST", f"/users/{name}")
        self.api("POST", f"/users/{name}/server")
        server = wait_for(lambda: (self.user(name).get("servers") or {}).get("", {}).get("ready") and
                          self.user(name)["servers"][""], timeout, f"{name}'s server")
        return self.server_process(server["state"])

    def server_process(self, state):
        """The pid (on this machine) of the single-user server a spawner's state describes."""
        if self.spawner == "local":
            return state["pid"]
        container = self.container(state)
        init = int(docker("inspect", "--format", "{{.State.Pid}}", container))
        # tini is the container's first process; the server is its child.
        children = psutil.Process(init).children()
        return children[0].pid if children else init

    def container(self, state):
        """The container id of a server (the swarm task's container for a service)."""
        if self.spawner == "swarm":
            return wait_for(lambda: docker("ps", "-q", "--filter", f"label=com.docker.swarm.service.id={state['object_id']}"),
                            60, "the service's container")
        return state["object_id"]

    def stop_server(self, name, timeout=90):
        """Stops a student's server through the Hub and waits until it is gone. A container's
        output is kept first, in <directory>/<name>.log (the container is removed when it stops;
        a local server writes to jupyterhub.log)."""
        if self.spawner != "local":
            self.save_container_log(name)
        self.api("DELETE", f"/users/{name}/server")
        wait_for(lambda: not self.user(name).get("servers"), timeout, f"{name}'s server to stop")

    def save_container_log(self, name):
        server = (self.user(name).get("servers") or {}).get("")
        if not server or not server.get("state"):
            return
        try:
            log = subprocess.run([DOCKER, "logs", "--timestamps", self.container(server["state"])],
                                 capture_output=True, text=True, timeout=60)
        except (HubError, subprocess.TimeoutExpired) as error:
            (self.directory / f"{name}.log").write_text(f"no log: {error}\n")
            return
        (self.directory / f"{name}.log").write_text(log.stdout + log.stderr)


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


class Student:
    """One simulated student: a server on the Hub, a notebook session with the Swift
    kernel, and a kernel websocket, as JupyterLab uses them."""

    def __init__(self, hub, name):
        self.hub = hub
        self.name = name
        self.server_pid = None
        self.kernel_id = None
        self.ws = None
        self.incoming = queue.Queue()   # (arrival time, kernel message), or the error that ended the websocket
        self.reader = None
        self.pings = 0   # the server's pings answered
        self.ready = False   # the server answers and the kernel has answered kernel_info
        self.timings = []   # (label, seconds, status)
        self.lock = threading.Lock()

    @property
    def base(self):
        return f"{self.hub.url}/user/{self.name}"

    def start(self):
        started = time.time()
        self.server_pid = self.hub.start_server(self.name)
        self.server_seconds = time.time() - started
        started = time.time()
        response = self.hub.session.post(f"{self.base}/api/sessions", timeout=120, json={
            "path": f"class-{self.name}.ipynb", "name": f"class-{self.name}.ipynb", "type": "notebook",
            "kernel": {"name": self.hub.kernel_name}})
        if response.status_code != 201:
            raise HubError(f"{self.name}: POST /api/sessions: {response.status_code} {response.text[:300]}")
        self.kernel_id = response.json()["kernel"]["id"]
        ws_url = self.base.replace("http://", "ws://") + f"/api/kernels/{self.kernel_id}/channels?session_id={uuid.uuid4()}"
        self.ws = websocket.create_connection(ws_url, header=[f"Authorization: token {self.hub.token}"])
        self.reader = threading.Thread(target=self.read, name=f"{self.name}'s websocket", daemon=True)
        self.reader.start()
        self.session_id = str(uuid.uuid4())
        reply = self.request("kernel_info_request", {}, timeout=120)
        if reply["content"].get("status") != "ok":
            raise HubError(f"{self.name}: kernel_info_reply {reply['content']}")
        self.kernel_seconds = time.time() - started
        self.ready = True

    def read(self):
        """Reads the kernel websocket on a thread of its own for as long as it is open, as a
        browser does. Every frame is read when it arrives, so the server's pings are answered
        while the student is idle too: jupyter_server closes a websocket whose pings go
        unanswered for 90 s (`ws_ping_timeout`), and a client that reads only while it waits
        for a reply loses its kernel connection while it waits for the rest of the class."""
        try:
            while True:
                opcode, data = self.ws.recv_data(control_frame=True)   # a ping is answered in here
                if opcode == websocket.ABNF.OPCODE_PING:
                    self.pings += 1
                    continue
                if opcode == websocket.ABNF.OPCODE_PONG:
                    continue
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else None
                    reason = data[2:].decode(errors="replace")
                    raise HubError(f"{self.name}: the server closed the kernel websocket "
                                   f"(close code {code}{', ' + reason if reason else ''}); "
                                   "its log says why (jupyterhub.log, or the container's log)")
                self.incoming.put((time.time(), json.loads(data)))
        except (HubError, websocket.WebSocketException, OSError, ValueError) as error:
            self.incoming.put(error)

    def receive(self, deadline, what):
        """The kernel's next message and when it arrived; raises what ended the websocket, or
        HubError when nothing came before `deadline` (time.time() values)."""
        try:
            item = self.incoming.get(timeout=max(0.0, deadline - time.time()))
        except queue.Empty:
            raise HubError(f"{self.name}: {what}") from None
        if isinstance(item, Exception):
            self.incoming.put(item)   # every later call fails the same way
            raise item
        return item

    def message(self, msg_type, content, channel="shell"):
        msg_id = uuid.uuid4().hex
        return msg_id, {
            "header": {"msg_id": msg_id, "msg_type": msg_type, "username": self.name, "session": self.session_id,
                       "date": time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime()), "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "channel": channel, "buffers": []}

    def request(self, msg_type, content, timeout=300):
        """Sends a shell request; returns its reply once the kernel is idle again."""
        msg_id, msg = self.message(msg_type, content)
        self.ws.send(json.dumps(msg))
        reply = None
        idle = False
        self.outputs = []
        deadline = time.time() + timeout
        while reply is None or not idle:
            arrived, incoming = self.receive(deadline, f"no reply to {msg_type} within {timeout} s")
            if incoming.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if incoming["channel"] == "shell":
                reply = incoming
                self.reply_seconds = arrived
            elif incoming["msg_type"] == "status" and incoming["content"]["execution_state"] == "idle":
                idle = True
            elif incoming["channel"] == "iopub" and incoming["msg_type"] != "status":
                self.outputs.append(incoming)
        return reply

    def comm(self, msg_type, content, timeout=60):
        """Sends a comm message (no reply on shell); returns the kernel's iopub messages
        for it, once the kernel is idle again."""
        msg_id, msg = self.message(msg_type, content)
        self.ws.send(json.dumps(msg))
        outputs = []
        deadline = time.time() + timeout
        while True:
            _, incoming = self.receive(deadline, f"the kernel did not go idle after {msg_type} within {timeout} s")
            if incoming.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if incoming["msg_type"] == "status":
                if incoming["content"]["execution_state"] == "idle":
                    return outputs
            else:
                outputs.append(incoming)

    def run(self, label, code, timeout=300):
        """Runs one cell; records and returns (seconds to execute_reply, reply content)."""
        started = time.time()
        try:
            reply = self.request("execute_request", {"code": code, "silent": False, "store_history": True,
                                                     "user_expressions": {}, "allow_stdin": False,
                                                     "stop_on_error": True}, timeout=timeout)
            seconds = self.reply_seconds - started
            content = reply["content"]
        except (HubError, websocket.WebSocketException, OSError, ValueError) as error:
            seconds, content = time.time() - started, {"status": "error", "ename": type(error).__name__,
                                                       "evalue": str(error)}
        with self.lock:
            self.timings.append((label, seconds, content.get("status"), content.get("evalue", "")))
        return seconds, content

    def complete(self, code):
        started = time.time()
        reply = self.request("complete_request", {"code": code, "cursor_pos": len(code)}, timeout=120)
        return time.time() - started, reply["content"]

    def process_tree(self):
        """The student's server and everything under it (kernel, host, compiler, language server)."""
        try:
            server = psutil.Process(self.server_pid)
            return [server] + server.children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def close(self):
        if self.ws is not None:
            try:
                self.ws.send_close()   # the reader reads the server's closing frame and ends
            except (websocket.WebSocketException, OSError):
                pass
            self.reader.join(timeout=5)
            self.ws.abort()   # a server that did not answer: the reader's wait ends here
            self.reader.join(timeout=5)
            self.ws.shutdown()
            self.ws = None


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


def alive(processes):
    """Descriptions of the processes of a snapshot that still run (zombies count as gone)."""
    left = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                left.append(f"{p.pid} {p.name()}")
        except psutil.NoSuchProcess:
            pass
    return left
