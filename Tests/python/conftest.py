"""Shared fixtures: a real Benchbook kernel started from the installed kernelspec, and
Jupyter's directories under a test's own folder (a module that wants them for every test:
`pytestmark = pytest.mark.usefixtures("jupyter_directories")`). What tests share beyond
fixtures is in python/benchbook_kit; a Jupyter server is benchbook_kit.servers.jupyter_server."""
import os

import pytest
from jupyter_client.manager import start_new_kernel

from benchbook_kit import sandbox
from benchbook_kit.kernel import KERNEL_NAME

# The suite tests what a compile does (interrupting one, its trace, its errors): kernels it
# starts keep no cell cache, unless a test (test_cell_cache.py) or the caller sets one. A
# user's kernel keeps one by default (docs/cell-cache.md).
os.environ.setdefault("BENCHBOOK_CELL_CACHE", "off")


@pytest.fixture
def kernel():
    """A started kernel and a blocking client; shut down after the test."""
    km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=60)
    try:
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.fixture
def jupyter_directories(tmp_path, monkeypatch):
    """Connection files and other Jupyter state of this process under the test's folder
    (tmp_path/jupyter), not in the home; request it before `kernel`."""
    sandbox.use_in_this_process(monkeypatch, tmp_path / "jupyter")
