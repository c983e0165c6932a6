"""The per-student limits the deploy files set (deploy/jupyterhub/benchbook_limits.py), read
from that file, which the Hub's configuration loads beside it."""
import runpy

from .. import ROOT

LIMITS_FILE = ROOT / "deploy" / "jupyterhub" / "benchbook_limits.py"

_limits = runpy.run_path(str(LIMITS_FILE))
MEM_LIMIT = _limits["MEM_LIMIT"]
MEM_GUARANTEE = _limits["MEM_GUARANTEE"]
CPU_LIMIT = _limits["CPU_LIMIT"]
CPU_GUARANTEE = _limits["CPU_GUARANTEE"]
