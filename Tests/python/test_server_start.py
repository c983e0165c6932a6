"""What a Jupyter server of this project's venv imports when it starts (`make test-hub`):
jsonschema without rfc3987-syntax, whose import builds Lark parsers for the `iri` formats
(0.7-0.9 CPU-s of each server start, results/server-start.md; the Makefile's venv target removes it), and notebooks still
validated against nbformat's schema. The class image is checked in test_cluster.py."""
import subprocess
import sys

from benchbook_kit import ROOT

# Imports what `jupyter lab` and nbclient import, validates a course notebook and a broken
# copy of it, and says whether the IRI parsers were built.
PROBE = """
import copy, sys
import jupyter_server.serverapp, jupyterlab.labapp, nbclient, nbformat
notebook = nbformat.read("notebooks/01-loading.ipynb", as_version=4)
nbformat.validate(notebook)
broken = copy.deepcopy(notebook)
broken.cells[0]["cell_type"] = "not-a-cell-type"
try:
    nbformat.validate(broken)
    print("broken notebook accepted")
except nbformat.ValidationError:
    print("broken notebook refused")
print("rfc3987_syntax imported" if "rfc3987_syntax" in sys.modules else "rfc3987_syntax not imported")
"""


def test_a_server_start_builds_no_iri_parsers_and_notebooks_are_still_validated():
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["broken notebook refused", "rfc3987_syntax not imported"], run.stdout
