"""`make lab`: JupyterLab on the student's working copy of the course (workspace/, ignored by
git), so that a lesson never changes a tracked notebook; Formgrader finds the nbgrader course
there as course/. See python/benchbook_kit/student_copy.py for the copy's layout.

    python scripts/notebooks/lab.py [--dir DIR] [--course DIR] [JupyterLab options...]

The copy is made or completed (missing notebooks copied, none overwritten), then JupyterLab
replaces this process, serving the copy from inside it. Options this script does not know go
to JupyterLab (`make lab LAB_ARGS=--no-browser`).
"""
import argparse
import os
import sys
from pathlib import Path

from benchbook_kit import ROOT
from benchbook_kit.student_copy import DEFAULT_DIRECTORY, StudentCopyError, prepare


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIRECTORY, help="the working copy (default: workspace/)")
    parser.add_argument("--course", type=Path, default=ROOT / "course", help="the nbgrader course (default: course/)")
    options, lab_options = parser.parse_known_args()
    try:
        prepared = prepare(options.dir, options.course)
    except StudentCopyError as error:
        sys.exit(f"make lab: {error}")
    print("\n".join(prepared.summary()), flush=True)
    command = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={prepared.directory}", *lab_options]
    if os.geteuid() == 0 and "--allow-root" not in lab_options:
        command.append("--allow-root")   # JupyterLab refuses root without it
    os.chdir(prepared.directory)   # nbgrader reads nbgrader_config.py in the server's directory
    os.execv(sys.executable, command)


if __name__ == "__main__":
    main()
