"""Jupyter's per-user directories moved under a test's temporary folder.

A Jupyter program started by a test (a server, nbgrader, Voilà, Sphinx with MyST-NB) writes
configuration, runtime files (connection files), data (nbgrader's, JupyterLab's
workspaces) and IPython state into the user's home unless told otherwise. `environment()`
points JUPYTER_CONFIG_DIR, JUPYTER_DATA_DIR, JUPYTER_RUNTIME_DIR and IPYTHONDIR at a
temporary folder, and keeps the installed kernelspecs visible through JUPYTER_PATH (the
data directories as the test process sees them, where `make kernelspec` put "swift").
"""
import os
import sys
from pathlib import Path

from jupyter_core.paths import jupyter_path

VENV_BIN = str(Path(sys.executable).parent)


def environment(root, **extra):
    """os.environ with Jupyter's directories under `root` (created), the venv's programs first
    on PATH (nbgrader runs `alembic` by name), and `extra` on top."""
    root = Path(root)
    env = os.environ.copy()
    env["JUPYTER_PATH"] = os.pathsep.join(jupyter_path())
    for variable, name in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                           ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")]:
        (root / name).mkdir(parents=True, exist_ok=True)
        env[variable] = str(root / name)
    env["PATH"] = VENV_BIN + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def use_in_this_process(monkeypatch, root):
    """The same directories for what the test process itself does (jupyter_client writes
    connection files to the runtime directory)."""
    env = environment(root)
    for variable in ["JUPYTER_PATH", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"]:
        monkeypatch.setenv(variable, env[variable])
