"""A Jupyter server (JupyterLab, jupyter server, Voilà) started for a test, on 127.0.0.1: the
one factory every test that needs a server uses.

`jupyter_server(app, root)` starts it on a free port with a fresh token, its log in `root`
(jupyterlab.log, server.log or voila.log) and Jupyter's own directories (configuration, data, runtime, IPython) in
`root/.jupyter/`, so nothing it saves reaches the user's home (kernelspecs installed for the
user stay visible); it waits until the server answers, yields a `JupyterServer`, and stops
it when the block ends. A test's fixture writes what the server should serve, then:

    @pytest.fixture(scope="module")
    def lab(tmp_path_factory):
        require_chromium()                       # benchbook_kit.browser, for a browser test
        root = tmp_path_factory.mktemp("lab")
        nbformat.write(notebook, root / "completion.ipynb")
        with jupyter_server("lab", root) as server:
            yield server                          # server.base, .token, .root, .env, .process

A server that exits or does not answer within `timeout` seconds raises ServerDidNotStart
with the end of its log (the test errors at set-up, showing it).
"""
import os
import secrets
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import ROOT, sandbox
from .ports import free_port
from .waiting import poll_until


class ServerDidNotStart(RuntimeError):
    """The server exited or did not answer in time; the message holds the end of its log."""


@dataclass(frozen=True)
class JupyterServer:
    """A running server: `base` (http://127.0.0.1:<port>), its `token`, the test's `root`
    folder, the environment it runs in (`env`: JUPYTER_RUNTIME_DIR holds its kernels'
    connection files), its `log` file and its `process`."""
    base: str
    token: str
    root: Path
    env: dict
    log: Path
    process: subprocess.Popen


# What each application is called in a message, its log file, and the path that answers once
# it serves (Voilà serves voila.js before any login, with an error status for a missing token).
_APPS = {
    "lab": ("JupyterLab", "jupyterlab.log", "/api/status?token={token}", False),
    "server": ("the Jupyter server", "server.log", "/api/status?token={token}", False),
    "voila": ("Voilà", "voila.log", "/voila/static/voila.js", True),
    "course-lab": ("`make lab`", "jupyterlab.log", "/api/status?token={token}", False),
}


def _command(app, port, token, root, notebook, arguments):
    listen = ["--no-browser", f"--port={port}"]
    if app == "voila":
        return [sys.executable, "-m", "voila", str(notebook), *listen, "--Voila.ip=127.0.0.1", f"--token={token}",
                "--show_tracebacks=True", *arguments]
    if app == "course-lab":   # the script serves the working copy it makes (its options: `arguments`)
        command = [sys.executable, str(ROOT / "scripts" / "notebooks" / "lab.py"), *arguments, *listen,
                   "--ip=127.0.0.1", f"--IdentityProvider.token={token}"]
    else:
        command = [sys.executable, "-m", "jupyter", app, *listen, "--allow-root", "--ip=127.0.0.1",
                   f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", *arguments]
    if app in ("lab", "course-lab"):   # no news and no update check: nothing reaches outside the machine
        command += ["--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    return command


@contextmanager
def jupyter_server(app, root, *, notebook=None, arguments=(), env=None, timeout=90):
    """Runs a Jupyter server until the block ends; yields a JupyterServer once it answers.

    - `app`: "lab" (JupyterLab serving `root`), "server" (jupyter server serving `root`),
      "voila" (Voilà serving `notebook`, from the notebook's folder, where its data is) or
      "course-lab" (what `make lab` runs, scripts/notebooks/lab.py: JupyterLab serving the
      working copy the script makes; `arguments` are the script's, e.g. --dir and --course).
    - `root`: the test's folder; the log and Jupyter's directories (`root/.jupyter/`) go there.
    - `arguments`: more command-line options; `env`: variables on top of the sandboxed
      environment (for the kernels it starts).
    Raises ServerDidNotStart, with the end of the log, when it exits or does not answer
    within `timeout` seconds; ValueError for an unknown `app` or Voilà without a notebook."""
    if app not in _APPS:
        raise ValueError(f"unknown Jupyter application {app!r}: one of {sorted(_APPS)}")
    if app == "voila" and notebook is None:
        raise ValueError("Voilà serves one notebook: pass notebook=")
    what, log_name, ready_path, http_error_is_ready = _APPS[app]
    root = Path(root)
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    environment = sandbox.environment(root / ".jupyter", **(env or {}))
    if app == "course-lab":   # the script imports the kit, as under make
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "python"), environment.get("PYTHONPATH")]))
    cwd = Path(notebook).parent if app == "voila" else root
    log_path = root / log_name
    log = open(log_path, "w")
    process = subprocess.Popen(_command(app, port, token, root, notebook, arguments), stdout=log,
                               stderr=subprocess.STDOUT, cwd=cwd, env=environment)

    def answers():
        try:
            urllib.request.urlopen(base + ready_path.format(token=token), timeout=2)
            return True
        except urllib.error.HTTPError:   # a status other than 2xx
            return http_error_is_ready
        except OSError:
            return False

    try:
        # Stops polling at once when the server exits.
        if poll_until(lambda: "exited" if process.poll() is not None else answers(), timeout, interval=0.5) is not True:
            raise ServerDidNotStart(f"{what} did not start: " + log_path.read_text()[-3000:])
        yield JupyterServer(base, token, root, environment, log_path, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
