"""A Jupyter server (JupyterLab, jupyter server, Voilà) started for a test, on 127.0.0.1.

`running_server` starts the command with its output in a log file, waits until `ready_url`
answers, and stops the server when the block ends; a server that exits or does not answer
within `timeout` seconds raises ServerDidNotStart with the end of its log.
"""
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path


class ServerDidNotStart(RuntimeError):
    """The server exited or did not answer in time; the message holds the end of its log."""


def lab_command(port, token, root, *extra):
    """`jupyter lab` on 127.0.0.1:`port` with `token`, serving `root`, with no browser, no news
    and no update check; `extra` arguments after these."""
    return [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
            f"--port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", *extra,
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]


@contextmanager
def running_server(command, ready_url, log_path, cwd, env, what="the Jupyter server", timeout=90,
                   http_error_is_ready=False):
    """Runs `command` until the block ends; yields its Popen once `ready_url` answers.
    `http_error_is_ready`: an HTTP error status counts as an answer (a page served before any
    login)."""
    log_path = Path(log_path)
    log = open(log_path, "w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=cwd, env=env)
    try:
        deadline = time.time() + timeout
        while True:
            try:
                urllib.request.urlopen(ready_url, timeout=2)
                break
            except OSError as error:   # an HTTPError too: a status other than 2xx
                if http_error_is_ready and isinstance(error, urllib.error.HTTPError):
                    break
                if process.poll() is not None or time.time() > deadline:
                    raise ServerDidNotStart(f"{what} did not start: " + log_path.read_text()[-3000:]) from None
                time.sleep(0.5)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
