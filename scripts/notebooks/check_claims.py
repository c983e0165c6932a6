"""Checks that no sentence of an executed notebook says more than the numbers it stands on.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py results/executed/05-timing.ipynb ...

The rules and the checker are python/benchbook_kit/claims.py (run_notebooks.py and
Tests/python/test_check_claims.py use it too). Prints what it checked and its problems, each with
its place (notebook, cell, output, line) and an excerpt around it, the first 100 per notebook (the
rest counted); exits 1 when there is one, and 2 when a file is not a notebook it can read (what is
wrong goes to standard error, without a traceback). Time and memory grow linearly with the files.
"""
import sys

from benchbook_kit.claims import main

if __name__ == "__main__":
    sys.exit(main())
