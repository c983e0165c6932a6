"""`make lab` (issue 47): JupyterLab on a student's working copy of the course, so that a
lesson never changes a tracked file, with Formgrader finding the nbgrader course.

The test starts what `make lab` runs (scripts/notebooks/lab.py, through the server factory's
"course-lab") on a working copy in its temporary folder, with a copy of course/ as the
course. A kernel started for a notebook of the copy, as JupyterLab starts one, runs in the
copy's notebooks/ and finds the files the notebooks read (models/, data/, ../models/generated)
and writes records to results/latest/. Through the server's contents API, as JupyterLab's autosave does, it saves notebook
04 with a new cell and outputs and creates a new notebook; the checkout's `git status
--porcelain` and its notebooks' bytes are the same before and after. A second start keeps
the student's edit and says which copies the course has changed since. nbgrader's config in
the running server names the course (no "No nbgrader_config.py file found"), and Formgrader's
API lists its assignment. The default working copy, workspace/, is ignored by git.
"""
import json
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from benchbook_kit import ROOT
from benchbook_kit.servers import jupyter_server
from benchbook_kit.student_copy import DEFAULT_DIRECTORY, StudentCopyError, prepare

NOTEBOOKS = ROOT / "notebooks"
EDITED = "04-preprocessing-for-photos.ipynb"
STUDENT_CELL = 'print("my own cell")'


def git_status():
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def notebook_bytes():
    return {path.name: path.read_bytes() for path in NOTEBOOKS.glob("*.ipynb")}


def api(server, method, path, body=None):
    request = urllib.request.Request(f"{server.base}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"token {server.token}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """`make lab`'s server on a working copy in a temporary folder; the checkout's state
    before it started."""
    root = tmp_path_factory.mktemp("student-copy")
    course = root / "course"   # the files the course's links point at are copied
    shutil.copytree(ROOT / "course", course, ignore=shutil.ignore_patterns(
        "gradebook.db", "release", "submitted", "autograded", "feedback", "__pycache__"))
    before = git_status(), notebook_bytes()
    workspace = root / "workspace"
    with jupyter_server("course-lab", root, arguments=["--dir", str(workspace), "--course", str(course)]) as server:
        yield server, workspace, course, before


def test_the_copy_has_every_notebook_and_the_files_they_read(lab):
    _, workspace, course, _ = lab
    names = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))
    assert sorted(path.name for path in (workspace / "notebooks").glob("*.ipynb")) == names
    for name in names:
        assert (workspace / "notebooks" / name).read_bytes() == (NOTEBOOKS / name).read_bytes()
    # The paths the notebooks use, from the copy's notebooks/ as from the checkout's.
    assert (workspace / "notebooks" / "models" / "fashion_cnn.ptl").resolve() == (NOTEBOOKS / "models" / "fashion_cnn.ptl").resolve()
    assert (workspace / "notebooks" / "data" / "sample_ankle_boot.png").exists()
    assert (workspace / "notebooks" / ".." / "models").resolve() == (ROOT / "models").resolve()
    assert (workspace / "results").resolve() == (ROOT / "results").resolve()
    assert (workspace / "course").resolve() == course.resolve()
    assert (workspace / "voila.json").resolve() == (NOTEBOOKS / "voila.json").resolve()


LESSON_CELL = """import Foundation
let lessonModel = try Model(contentsOf: "models/fashion_cnn.ptl")
print(FileManager.default.currentDirectoryPath)
print(FileManager.default.fileExists(atPath: "data/sample_ankle_boot.png"), FileManager.default.fileExists(atPath: "../models/generated"))
print(BenchmarkRecord.defaultDirectory.path)
"""


def test_a_notebooks_kernel_runs_in_the_copy_and_finds_the_courses_files(lab):
    """A kernel started as JupyterLab starts one (a session for the notebook): its directory is
    the copy's notebooks/, the paths the notebooks use resolve, records go to results/latest/."""
    from jupyter_client import BlockingKernelClient
    from benchbook_kit.kernel import errors, run_cell, text_of
    server, workspace, _, _ = lab
    session = api(server, "POST", "/api/sessions", {"path": f"notebooks/{EDITED}", "type": "notebook",
                                                    "name": EDITED, "kernel": {"name": "swift"}})
    try:
        kc = BlockingKernelClient()
        kc.load_connection_file(f"{server.env['JUPYTER_RUNTIME_DIR']}/kernel-{session['kernel']['id']}.json")
        kc.start_channels()
        kc.wait_for_ready(timeout=120)
        reply, outputs = run_cell(kc, LESSON_CELL, timeout=300)
        kc.stop_channels()
        assert reply["status"] == "ok", errors(outputs)
        directory, found, records = text_of(outputs).splitlines()
        assert directory == str(workspace / "notebooks")
        assert found == "true true"
        assert Path(records).resolve() == (ROOT / "results" / "latest").resolve()   # through the copy's results link
    finally:
        api(server, "DELETE", f"/api/sessions/{session['id']}")


def test_saving_through_the_server_leaves_the_checkout_as_it_was(lab):
    server, workspace, _, (status, originals) = lab
    path = f"/api/contents/notebooks/{EDITED}"
    model = api(server, "GET", path + "?content=1")
    notebook = model["content"]
    notebook["cells"].append({"cell_type": "code", "execution_count": 1, "id": "student-cell", "metadata": {},
                              "source": STUDENT_CELL,
                              "outputs": [{"output_type": "stream", "name": "stdout", "text": "my own cell\n"}]})
    api(server, "PUT", path, {"type": "notebook", "format": "json", "content": notebook})
    api(server, "POST", "/api/contents/notebooks", {"type": "notebook"})   # File > New > Notebook
    api(server, "POST", path + "/checkpoints")                            # what Save does too

    saved = json.loads((workspace / "notebooks" / EDITED).read_text())
    assert "".join(saved["cells"][-1]["source"]) == STUDENT_CELL
    assert list((workspace / "notebooks").glob("Untitled*.ipynb"))
    assert notebook_bytes() == originals
    assert git_status() == status


def test_a_second_start_keeps_the_students_work_and_names_changed_course_notebooks(lab, tmp_path):
    server, workspace, course, _ = lab
    api(server, "GET", f"/api/contents/notebooks/{EDITED}")   # the server is up (the save test may run first)
    copy = workspace / "notebooks" / EDITED
    copy.write_text(copy.read_text().replace('"cells": [', '"cells": [{"cell_type": "markdown", "id": "mine", '
                                                             '"metadata": {}, "source": "my notes"},', 1))
    edited = copy.read_bytes()
    again = prepare(workspace, course)
    assert copy.read_bytes() == edited
    assert EDITED in again.kept and not again.copied and not again.changed

    # A course notebook that changed since the copy was made is named, the copy kept.
    source = tmp_path / "notebooks"
    source.mkdir()
    (source / "data").mkdir()
    (source / "models").mkdir()
    (source / "lesson.ipynb").write_text('{"cells": []}')
    elsewhere = tmp_path / "copy"
    assert prepare(elsewhere, course, source).copied == ["lesson.ipynb"]
    (elsewhere / "notebooks" / "lesson.ipynb").write_text('{"cells": ["mine"]}')
    (source / "lesson.ipynb").write_text('{"cells": [], "metadata": {}}')
    later = prepare(elsewhere, course, source)
    assert later.changed == ["lesson.ipynb"]
    assert (elsewhere / "notebooks" / "lesson.ipynb").read_text() == '{"cells": ["mine"]}'
    assert "delete" in "\n".join(later.summary())
    # Deleted, it is copied again from the course.
    (elsewhere / "notebooks" / "lesson.ipynb").unlink()
    assert prepare(elsewhere, course, source).copied == ["lesson.ipynb"]
    assert (elsewhere / "notebooks" / "lesson.ipynb").read_text() == '{"cells": [], "metadata": {}}'


def test_a_file_where_a_link_belongs_or_a_copy_inside_notebooks_is_a_clear_error(tmp_path):
    with pytest.raises(StudentCopyError, match="cannot be inside"):
        prepare(NOTEBOOKS / "workspace")
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "course").write_text("mine")
    with pytest.raises(StudentCopyError, match="in the way"):
        prepare(tmp_path / "copy")
    assert (tmp_path / "copy" / "course").read_text() == "mine"


def test_formgrader_finds_the_course(lab):
    server, _, course, _ = lab
    log = server.log.read_text()
    assert "No nbgrader_config.py file found" not in log, log[-3000:]
    assert "not a subdirectory of the notebook server root" not in log, log[-3000:]
    assignments = api(server, "GET", "/formgrader/api/assignments")
    assert [assignment["name"] for assignment in assignments] == ["classifier"], assignments
    assert (course / "gradebook.db").exists()   # Formgrader's gradebook, in the course
    # Generate (Formgrader's button) with the course's own configuration: the Swift stub
    # (nbgrader has none of its own for Swift and would fail).
    done = api(server, "POST", "/formgrader/api/assignment/classifier/assign", {})
    assert done["success"], f"{done.get('log')}\n{done.get('error')}"
    released = (course / "release" / "classifier" / "classifier.ipynb").read_text()
    assert 'fatalError(\\"not implemented\\")' in released and "BEGIN SOLUTION" not in released


def test_the_default_working_copy_is_ignored_by_git():
    ignored = subprocess.run(["git", "check-ignore", "-q", str(DEFAULT_DIRECTORY / "notebooks" / EDITED)], cwd=ROOT)
    assert ignored.returncode == 0, "workspace/ is not in .gitignore"
    assert DEFAULT_DIRECTORY.parent == ROOT   # beside notebooks/: ../models and ../results resolve
