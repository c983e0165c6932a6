"""A class's cell cache filled by running the course's cells once, where the students run:
the teacher's step before a lesson (scripts/hub/warm_cache.py has the command and the method)."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import ROOT
from .docker_engine import DOCKER, ensure

IMAGE = "benchbook-singleuser:latest"
COURSE = ["01-loading.ipynb", "02-normalising.ipynb", "03-classifying.ipynb", "04-preprocessing-for-photos.ipynb"]
MOUNT = "/opt/benchbook/class-cache"
NOTEBOOKS_IN_IMAGE = "/home/student/course/notebooks"


def read_only(directory):
    """Everything in the cache readable by all, writable by its owner only."""
    for path in [directory, *directory.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod((mode | 0o444 | (0o111 if path.is_dir() else 0)) & ~0o022)


def warm(out, notebooks=COURSE, cells=None, bare=False, image=IMAGE, log=print):
    """Runs the notebooks (and the lists of cells, if any) into `out`; returns the runner's output."""
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        arguments = list(notebooks)
        if cells:
            (Path(scratch) / "cells.json").write_text(json.dumps(cells))
        if bare:
            command = [sys.executable, str(ROOT / "scripts" / "hub" / "run_cells.py"), "--cwd", str(ROOT / "notebooks")]
            command += arguments + (["--cells", str(Path(scratch) / "cells.json")] if cells else [])
            env = dict(os.environ, BENCHBOOK_CELL_CACHE=str(out))
            env.pop("BENCHBOOK_CELL_CACHE_READONLY", None)
        else:
            ensure()
            command = [DOCKER, "run", "--rm", "--network", "none", "-u", f"{os.getuid()}:{os.getgid()}",
                       "-e", "HOME=/tmp/teacher", "-e", f"BENCHBOOK_CELL_CACHE={MOUNT}",
                       "-v", f"{out}:{MOUNT}", "-v", f"{ROOT / 'scripts' / 'hub' / 'run_cells.py'}:/tmp/run_cells.py:ro",
                       "-v", f"{scratch}:/tmp/warm:ro", "-w", NOTEBOOKS_IN_IMAGE,
                       "--entrypoint", "/opt/benchbook/.venv/bin/python", image, "/tmp/run_cells.py",
                       "--cwd", NOTEBOOKS_IN_IMAGE] + arguments + (["--cells", "/tmp/warm/cells.json"] if cells else [])
            env = None
        result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"warm-cache: the run failed ({result.returncode}):\n{result.stdout}{result.stderr[-3000:]}")
    read_only(out)
    entries = len(list(out.rglob("manifest")))
    log(result.stdout.strip())
    log(f"warm-cache: {out} holds {entries} entries, "
        f"{sum(p.stat().st_size for p in out.rglob('*') if p.is_file()) / 1e6:.1f} MB")
    return result.stdout
