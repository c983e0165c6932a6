"""The course's nbgrader assignment (course/source/classifier) through a teacher's whole
round trip with the Swift kernel, in a copy of the course folder: `nbgrader
generate_assignment` (solutions become the Swift stub, hidden tests go), three students'
submissions (every function right; two of the course apps' bugs; the released notebook
handed back unchanged), `nbgrader autograde` (each notebook executed by the "swift"
kernel; a failed `precondition` in a check cell is an error output and scores 0) and
`nbgrader generate_feedback`. The scores are asserted cell by cell from nbgrader's
gradebook and in the feedback pages. The partial student also edited the argmax check
(a locked cell with hidden tests): autograde warns about that cell of that student only, and
grades with the teacher's check; the honest students' cells, handed back as released
(without the hidden tests), raise no tamper warning (course/hidden_tests.py).
"""
import json
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from benchbook_kit import ROOT
from benchbook_kit import sandbox

COURSE = ROOT / "course"
ASSIGNMENT = "classifier"
NOTEBOOK = "classifier.ipynb"
STUB = '// YOUR CODE HERE\nfatalError("not implemented")'

# A student who made two mistakes the course's notebooks discuss: softmax without
# subtracting the largest logit (overflows), and seed 003's argmax (starts at index 1 with a
# best value of 0.0).
PARTIAL = {
    "softmax": """\
func softmax(_ logits: [Float]) -> [Float] {
    let exponentials = logits.map { Foundation.exp($0) }
    let total = exponentials.reduce(0, +)
    return exponentials.map { $0 / total }
}""",
    "argmax": """\
func argmax(_ scores: [Float]) -> Int {
    var best = -1
    var bestValue: Float = 0.0
    for i in 1..<scores.count where scores[i] > bestValue { bestValue = scores[i]; best = i }
    return best
}""",
}

# The partial student's edit of the argmax check (locked): its preconditions gone.
TAMPERED_CHECK = 'print("argmax: correct")'

POINTS = {"check-input": 2, "check-softmax": 2, "check-softmax-large": 1, "check-argmax": 2,
          "check-topk": 1, "check-classify": 1, "check-accuracy": 1}
EXPECTED = {
    "full": dict(POINTS),
    # The naive softmax is right on the model's logits but overflows on large ones; the
    # argmax bug fails its check and the accuracy (class 0 is never answered), not the
    # sample's answer (an ankle boot, class 9).
    "partial": {**POINTS, "check-softmax-large": 0, "check-argmax": 0, "check-accuracy": 0},
    "empty": {name: 0 for name in POINTS},
}


def solution_cells(path):
    """grade_id → source of each solution cell."""
    nb = nbformat.read(path, as_version=4)
    return {c.metadata.nbgrader["grade_id"]: c.source for c in nb.cells
            if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")}


def without_markers(source):
    return "\n".join(line for line in source.splitlines() if "BEGIN SOLUTION" not in line and "END SOLUTION" not in line)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The course graded: released, three submissions, autograded, feedback written."""
    root = tmp_path_factory.mktemp("nbgrader")
    course = root / "course"
    shutil.copytree(COURSE, course, ignore=shutil.ignore_patterns("gradebook.db", "release", "submitted",
                                                                   "autograded", "feedback"))
    env = sandbox.environment(root / "jupyter")
    log = []

    def nbgrader(*arguments):
        run = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=course, env=env,
                             capture_output=True, text=True, timeout=900)
        log.append(f"$ nbgrader {' '.join(arguments)}\n{run.stdout}{run.stderr}")
        assert run.returncode == 0, log[-1][-6000:]
        return run.stdout + run.stderr

    nbgrader("generate_assignment", ASSIGNMENT)
    released = course / "release" / ASSIGNMENT
    answers = {grade_id: without_markers(source)
               for grade_id, source in solution_cells(COURSE / "source" / ASSIGNMENT / NOTEBOOK).items()}
    submissions = {"full": answers, "partial": {**answers, **PARTIAL}, "empty": {}}
    for student, sources in submissions.items():
        folder = course / "submitted" / student / ASSIGNMENT
        shutil.copytree(released, folder)
        nb = nbformat.read(folder / NOTEBOOK, as_version=4)
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in sources:
                cell.source = sources[grade_id]
            if student == "partial" and grade_id == "check-argmax":
                cell.source = TAMPERED_CHECK
        nbformat.write(nb, folder / NOTEBOOK)
    autograde_log = nbgrader("autograde", ASSIGNMENT)
    (root / "autograde.log").write_text(autograde_log)
    nbgrader("generate_feedback", ASSIGNMENT)
    (root / "nbgrader.log").write_text("\n".join(log))
    return course


def test_the_released_notebook_has_the_swift_stub_and_no_solutions(course):
    released = (course / "release" / ASSIGNMENT / NOTEBOOK).read_text()
    source = (COURSE / "source" / ASSIGNMENT / NOTEBOOK).read_text()
    assert "BEGIN HIDDEN TESTS" in source and "argmax(sampleLogits) == 9" in source
    for gone in ["BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS", "argmax(sampleLogits) == 9",
                 "Foundation.exp($0 - largest)"]:
        assert gone not in released, gone
    stubs = solution_cells(course / "release" / ASSIGNMENT / NOTEBOOK)
    assert set(stubs) == {"input", "softmax", "argmax", "topk", "classify"}
    indented = "    " + STUB.replace("\n", "\n    ")   # at the solution region's indentation
    for grade_id, text in stubs.items():
        assert indented in text, (grade_id, text)
    assert "func argmax(_ scores: [Float]) -> Int {\n" + indented + "\n}" in stubs["argmax"]
    # Files the notebook reads travel with it.
    assert (course / "release" / ASSIGNMENT / "models" / "fashion_cnn.ptl").stat().st_size > 100_000
    assert (course / "release" / ASSIGNMENT / "data" / "sample_ankle_boot.png").exists()


def test_scores_of_a_full_a_partial_and_an_empty_submission(course):
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="benchbook") as gradebook:
        for student, expected in EXPECTED.items():
            submission = gradebook.find_submission(ASSIGNMENT, student)
            notebook = submission.notebooks[0]
            scores = {grade.name: grade.score for grade in notebook.grades}
            assert scores == expected, (student, scores)
            assert submission.max_score == 10
            assert submission.score == sum(expected.values()), (student, submission.score)
            assert not submission.needs_manual_grade


def check_cell_outputs(course, student):
    """grade_id → (error outputs, stdout text) of each check cell in the autograded notebook."""
    nb = nbformat.read(course / "autograded" / student / ASSIGNMENT / NOTEBOOK, as_version=4)
    found = {}
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id in POINTS:
            errors = [o for o in cell.outputs if o.output_type == "error"]
            stdout = "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")
            stderr = [o for o in cell.outputs if o.output_type == "stream" and o.name == "stderr"]
            assert not stderr, (student, grade_id, stderr)   # stderr alone would score 0
            found[grade_id] = (errors, stdout)
    return found


def test_failed_checks_say_what_went_wrong_and_passed_ones_print_correct(course):
    full = check_cell_outputs(course, "full")
    assert all(not errors and "correct" in stdout for errors, stdout in full.values()), full
    partial = check_cell_outputs(course, "partial")
    large_errors, _ = partial["check-softmax-large"]
    assert "exp overflowed" in large_errors[0].evalue, large_errors
    argmax_errors, _ = partial["check-argmax"]
    assert "class 0 can win" in argmax_errors[0].evalue, argmax_errors
    accuracy_errors, _ = partial["check-accuracy"]
    assert re.search(r"should be 0\.9\d+, not 0\.\d+", accuracy_errors[0].evalue), accuracy_errors
    empty = check_cell_outputs(course, "empty")
    for grade_id, (errors, _) in empty.items():
        assert errors and "not implemented" in errors[0].evalue, (grade_id, errors)


def test_the_hidden_tests_ran_at_grading(course):
    nb = nbformat.read(course / "autograded" / "full" / ASSIGNMENT / NOTEBOOK, as_version=4)
    check = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "check-argmax")
    assert "argmax(sampleLogits) == 9" in check.source


def tamper_warnings(log):
    """(student, grade_id, attribute) of each "Attribute ... has changed!" warning in
    autograde's log, the student read from the submission being sanitised before it."""
    found, student = [], None
    for line in log.splitlines():
        submission = re.search(r"submitted/([^/\s]+)/" + ASSIGNMENT, line)
        if submission:
            student = submission.group(1)
        change = re.search(r"Attribute '(\w+)' for cell (\S+) has changed!", line)
        if change:
            found.append((student, change.group(2), change.group(1)))
    return found


def test_only_the_tampered_check_is_reported_and_the_teachers_check_graded_it(course):
    log = (course.parent / "autograde.log").read_text()
    # The honest students' check cells come back without the hidden tests, as released: no
    # warning for them; the tampered one is reported once, for its student.
    assert tamper_warnings(log) == [("partial", "check-argmax", "checksum")], log[-4000:]
    nb = nbformat.read(course / "autograded" / "partial" / ASSIGNMENT / NOTEBOOK, as_version=4)
    check = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "check-argmax")
    teachers = nbformat.read(COURSE / "source" / ASSIGNMENT / NOTEBOOK, as_version=4)
    original = next(c for c in teachers.cells if c.metadata.nbgrader.get("grade_id") == "check-argmax")
    assert check.source == original.source   # the teacher's check, hidden tests included


def test_feedback_pages_show_each_score(course):
    for student, expected in EXPECTED.items():
        page = (course / "feedback" / student / ASSIGNMENT / "classifier.html").read_text()
        total = float(sum(expected.values()))
        assert f"Score: {total} / 10.0" in page, (student, re.findall(r"Score: [^<]*", page))
