"""Installs Debian's Docker engine if missing, starts it and prints its version (make docker-engine).

    PYTHONPATH=python .venv/bin/python scripts/hub/docker_engine.py

python/benchbook_kit/hub/docker_engine.py does it and says how.
"""
import subprocess
import sys

from benchbook_kit.hub.docker_engine import EngineError, ensure

if __name__ == "__main__":
    try:
        print(f"dockerd {ensure()} answers on its socket")
    except (EngineError, subprocess.CalledProcessError) as error:
        sys.exit(f"docker-engine: {error}")
