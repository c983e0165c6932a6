"""Checks that no sentence of an executed notebook says more than the numbers it stands on.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py results/executed/05-timing.ipynb ...

The rules and the checker are python/benchbook_kit/claims.py (run_notebooks.py and
Tests/python/test_check_claims.py use it too). Prints what it checked and every violation;
exits 1 when there is one.
"""
import sys

from benchbook_kit.claims import main

if __name__ == "__main__":
    sys.exit(main())
