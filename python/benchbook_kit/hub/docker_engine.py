"""The Docker engine this project's class tests and images run on: Debian's `docker.io`.

    PYTHONPATH=python .venv/bin/python scripts/hub/docker_engine.py      # install if missing, start, print the version

(that script calls ensure() of this module)

Installs `docker.io` and `debootstrap` with apt-get when missing (the same way `make apt`
installs the project's other Debian packages), starts `dockerd` when nothing answers on its
socket, and waits until it does. The daemon is left running for the next test or build, as
a service would be; its log is /var/log/benchbook-dockerd.log.

Every command goes to Debian's client, /usr/bin/docker, which matches the daemon's API
version (an image may carry a newer client earlier on PATH).
"""
import os
import shutil
import subprocess
from pathlib import Path

from .. import waiting

DOCKER = os.environ.get("DOCKER", "/usr/bin/docker")
DOCKERD = "/usr/sbin/dockerd"
PACKAGES = ["docker.io", "debootstrap"]
LOG = Path("/var/log/benchbook-dockerd.log")


class EngineError(RuntimeError):
    """Docker could not be installed or started; the message says what to do."""


def log(text):
    print(f"docker-engine: {text}", flush=True)


def installed(package):
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return "install ok installed" in result.stdout


def install_missing():
    missing = [p for p in PACKAGES if not installed(p)]
    if not missing:
        return
    if os.geteuid() != 0:
        raise EngineError(f"Debian packages missing: {' '.join(missing)}; install them as root (apt-get install)")
    log(f"installing Debian packages: {' '.join(missing)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env, stdout=subprocess.DEVNULL)


def answers():
    """True when the daemon answers on its socket."""
    try:
        return subprocess.run([DOCKER, "version", "--format", "{{.Server.Version}}"], capture_output=True,
                              timeout=20).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def start_daemon(timeout=90):
    if answers():
        return
    if os.geteuid() != 0:
        raise EngineError("dockerd is not running and only root can start it")
    log(f"starting dockerd (log: {LOG})")
    with open(LOG, "ab") as out:
        # A session of its own: the daemon outlives the make step that started it.
        subprocess.Popen([DOCKERD], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True)
    if waiting.poll_until(answers, timeout, interval=0.5):
        return
    tail = LOG.read_text(errors="replace").splitlines()[-15:] if LOG.exists() else []
    raise EngineError(f"dockerd did not answer within {timeout} s; its log ends:\n" + "\n".join(tail))


def ensure():
    """Installs and starts the engine when needed; returns the daemon's version."""
    install_missing()
    if not shutil.which(DOCKER) and not Path(DOCKER).exists():
        raise EngineError(f"{DOCKER} is missing after installing docker.io")
    start_daemon()
    return subprocess.run([DOCKER, "version", "--format", "{{.Server.Version}}"], capture_output=True,
                          text=True, check=True).stdout.strip()


def docker(*arguments, check=True, capture=True, **kwargs):
    """Runs the Docker client; returns its standard output (stripped) when captured."""
    result = subprocess.run([DOCKER, *arguments], check=False, capture_output=capture, text=True, **kwargs)
    if check and result.returncode != 0:
        detail = (result.stderr or "").strip() if capture else ""
        raise EngineError(f"docker {' '.join(arguments[:3])} failed ({result.returncode}): {detail[-1500:]}")
    return (result.stdout or "").strip() if capture else ""

