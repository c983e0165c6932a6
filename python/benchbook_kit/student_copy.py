"""A student's working copy of the course, outside the tracked files (`make lab`).

JupyterLab opened on notebooks/ saves outputs and new cells into the tracked notebooks. The
working copy (workspace/ by default, ignored by git) mirrors the checkout's layout so that
every path a notebook uses still resolves:

    workspace/notebooks/*.ipynb, README.md   copies, made when missing, never overwritten
    workspace/notebooks/data, models         links to the checkout's notebooks/data, models
    workspace/models, results                links to the checkout's (`../models/generated/`,
                                             records go to results/latest/, ignored)
    workspace/course                         link to the nbgrader course (course/)
    workspace/voila.json                     link to notebooks/voila.json (JupyterLab's Voilà
                                             preview reads it in the server's directory)
    workspace/nbgrader_config.py             written each time: nbgrader reads the course's
                                             configuration and finds the course in course/

JupyterLab then serves workspace/ from workspace/ (nbgrader reads nbgrader_config.py in the
server's current directory; Formgrader needs the course below the server's root).
`prepare()` returns what it did, and which kept copies the course has changed since they
were made (their digests at copy time are in workspace/.benchbook-copies.json): delete a
copy and prepare again for a fresh one.
"""
import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from . import ROOT

DEFAULT_DIRECTORY = ROOT / "workspace"
RECORD = ".benchbook-copies.json"
NBGRADER_CONFIG = '''\
# Written by `make lab` (python/benchbook_kit/student_copy.py) at each start; edit
# course/nbgrader_config.py instead. nbgrader, and Formgrader in JupyterLab, read the course's
# configuration and find the course in course/ (a link to the checkout's course/).
import os.path

c = get_config()  # noqa: F821 (provided by nbgrader)
load_subconfig("course/nbgrader_config.py")  # noqa: F821
c.CourseDirectory.root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "course")
'''


class StudentCopyError(RuntimeError):
    """The working copy cannot be made; the message says what to do."""


@dataclass
class Prepared:
    """What `prepare()` found and did: the working copy's `directory`, the notebooks it
    `copied` now, the ones it `kept` (already there) and, of those, the ones whose course
    version `changed` since they were copied."""
    directory: Path
    copied: list = field(default_factory=list)
    kept: list = field(default_factory=list)
    changed: list = field(default_factory=list)

    def summary(self):
        """Lines for the terminal: where the copy is and what changed."""
        lines = [f"Your copy of the course: {self.directory}/notebooks (ignored by git)"]
        if self.copied:
            lines.append(f"copied from notebooks/: {', '.join(self.copied)}")
        for name in self.changed:
            lines.append(f"notebooks/{name} changed in the course since your copy was made; yours is kept "
                         f"(for a fresh copy: delete {self.directory / 'notebooks' / name} and start again)")
        return lines


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _link(link, target):
    """`link` pointing at `target` (relative when both are in one tree); an existing link to
    elsewhere is replaced, a file or folder in its place is an error."""
    wanted = os.path.relpath(target, link.parent)
    if link.is_symlink():
        if os.readlink(link) == wanted:
            return
        link.unlink()
    elif link.exists():
        raise StudentCopyError(f"{link} is in the way of a link to {target}: move it elsewhere and start again")
    link.symlink_to(wanted, target_is_directory=target.is_dir())


def prepare(directory=DEFAULT_DIRECTORY, course=ROOT / "course", source=ROOT / "notebooks"):
    """Makes or completes the working copy in `directory` from the course's notebooks in
    `source` and the nbgrader course in `course`; never overwrites a notebook already there.
    Raises StudentCopyError when a file stands where a link belongs or `directory` is inside
    the tracked notebooks."""
    directory, course, source = Path(directory).absolute(), Path(course).absolute(), Path(source).absolute()
    if directory == source or source in directory.parents:
        raise StudentCopyError(f"the working copy {directory} cannot be inside {source}: choose another folder")
    notebooks = directory / "notebooks"
    notebooks.mkdir(parents=True, exist_ok=True)
    record_path = directory / RECORD
    record = json.loads(record_path.read_text()) if record_path.exists() else {}
    prepared = Prepared(directory)
    for original in sorted([*source.glob("*.ipynb"), source / "README.md"]):
        if not original.is_file():
            continue
        copy = notebooks / original.name
        digest = _digest(original)
        if copy.exists():
            prepared.kept.append(original.name)
            if original.name in record and record[original.name] != digest:
                prepared.changed.append(original.name)
            continue
        shutil.copyfile(original, copy)
        record[original.name] = digest
        prepared.copied.append(original.name)
    for name in ["data", "models"]:
        _link(notebooks / name, source / name)
    for name in ["models", "results"]:
        _link(directory / name, source.parent / name)
    _link(directory / "course", course)
    if (source / "voila.json").exists():
        _link(directory / "voila.json", source / "voila.json")
    (directory / "nbgrader_config.py").write_text(NBGRADER_CONFIG)
    record_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return prepared
