"""Real front ends against the installed kernelspec: nbconvert and jupyter console."""
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager

from benchbook_kit.kernel import KERNEL_NAME

BIN = Path(sys.executable).parent


def test_nbconvert_executes_a_notebook(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": KERNEL_NAME, "display_name": "Swift", "language": "swift"}
    notebook.cells = [
        nbformat.v4.new_code_cell("let words = [\"bench\", \"book\"]"),
        nbformat.v4.new_code_cell("print(words.joined())\nwords.count"),
    ]
    source = tmp_path / "two-cells.ipynb"
    nbformat.write(notebook, source)
    subprocess.run([BIN / "jupyter", "nbconvert", "--to", "notebook", "--execute", "--output", "done.ipynb",
                    str(source)], check=True, cwd=tmp_path, timeout=300)
    executed = nbformat.read(tmp_path / "done.ipynb", as_version=4)
    outputs = executed.cells[1].outputs
    assert outputs[0]["text"] == "benchbook\n"
    assert outputs[1]["data"]["text/plain"] == "2"
    assert executed.metadata["language_info"]["name"] == "swift"


def test_console_existing(tmp_path):
    km = KernelManager(kernel_name=KERNEL_NAME)
    km.start_kernel()
    try:
        km.client().wait_for_ready(timeout=60)
        result = subprocess.run(
            [BIN / "jupyter", "console", "--existing", km.connection_file, "--simple-prompt", "--ZMQTerminalInteractiveShell.kernel_timeout=120"],
            input="let n = 6\nprint(n * 7)\nexit\n", capture_output=True, text=True, timeout=300,
            env={**os.environ, "TERM": "dumb"})
        assert "42" in result.stdout, result.stdout + result.stderr
    finally:
        km.shutdown_kernel(now=True)
