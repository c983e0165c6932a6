"""Benchbook's Python kit: what the scripts in scripts/ and the tests in Tests/python share.

- ROOT (here): the checkout's root, the one definition scripts/, Tests/python and the kit use
- kernel: start a kernel from the installed kernelspec, run cells, collect their outputs,
  send comm messages, the kernel's processes, FRAME_MARKER
- sandbox: Jupyter's per-user directories under a temporary folder
- ports: free_port, free_ports
- servers: `jupyter_server`, the one factory of a test's Jupyter server (JupyterLab, jupyter
  server, Voilà, `make lab`'s) on a free port with a token and its own Jupyter directories; a test's fixture
  writes what it serves and yields from it (an example in servers.py). A new browser test
  uses it with browser.require_chromium
- browser: CHROMIUM (Debian's, for Playwright), require_chromium
- skips: skip_or_fail (a missing dependency skips a test, and fails it under CI)
- cells: a cell that must run (`run`) or fail (`fails`), what it showed (`shown`), and no
  generated name (GENERATED) in either
- statistics: percentile, with the notebook library's definition
- notebook_state: a course notebook run through a kernel, its variables read back
- claims: the checker of the notebooks' stated directions against their numbers
- adversarial: hostile texts and notebooks for the claims checker (its tests, its measurement)
- hub: a JupyterHub with simulated students, their processes by role, the Docker engine,
  the class cache, a class's run
- report: the Markdown table writer of the benchmarks' reports
- screenshots: pixels, differing_share (whether a browser test's picture changed)
- student_copy: the student's working copy of the course that `make lab` serves (workspace/)
- waiting: poll_until, wait_for (the one polling loop), alive (which processes still run)

Not installed: the Makefile exports PYTHONPATH=<checkout>/python for every command it runs,
and the root's pytest.ini adds it through pytest's `pythonpath` option. A
script run by hand needs the same: `PYTHONPATH=python .venv/bin/python scripts/...`.
Neither scripts/ nor Tests/python imports the other, and no test module imports another:
what two of them share is here.
"""
from pathlib import Path

# The checkout: python/benchbook_kit/__init__.py is two folders below it.
ROOT = Path(__file__).resolve().parents[2]
