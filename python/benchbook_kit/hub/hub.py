"""A JupyterHub on 127.0.0.1 with the Swift kernel, and simulated students that use it the
way JupyterLab does: through the Hub's REST API and the single-user server's REST and
kernel websocket API. Used by Tests/python/test_hub.py, Tests/python/test_cluster.py,
scripts/hub/bench_class.py and scripts/hub/bench_cluster.py; the students are in student.py,
their processes by role in processes.py.

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
import os
import secrets
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import requests
from jupyter_client.kernelspec import KernelSpecManager

from .. import ROOT, waiting
from ..ports import free_port
from .docker_engine import DOCKER, docker

VENV_BIN = Path(sys.executable).parent
NODE_PATH = "/usr/share/nodejs"


class HubError(RuntimeError):
    """The Hub or a student's server did not do what was asked; the message says what."""


def wait_for(condition, timeout, what, interval=0.2):
    """The kit's `wait_for`, raising HubError."""
    return waiting.wait_for(condition, timeout, what, interval, error=HubError)


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
