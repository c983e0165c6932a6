"""Every Python test file runs in `make test`, once, and docs/tests.md says where (issue 48).

The recipes in mk/*.mk name the files they run, which is how test_one_file.py came to run in
no target at all. These tests ask make itself: a dry run (`make -n`) prints the commands a
target would run, and those name the test files pytest runs, or a script that runs them
(scripts/hostile/run_hostile.py names test_hostile_messages.py in its code). A file that no
target of `make test` runs, that runs twice, that runs only in part (`-k`), or that
docs/tests.md places in another target fails here, with what to change. No kernel, no build:
this is part of `make test-claims`.
"""
import ast
import os
import re
import subprocess
from collections import Counter
from functools import cache

from benchbook_kit import ROOT

TEST_FILE = re.compile(r"Tests/python/(test_\w+\.py)")
SCRIPT = re.compile(r"scripts/[\w/]+\.py")
SELECTION = re.compile(r"\bpytest\b.*(\s(-k|-m|--deselect)\s|\.py::)")
DOCS = ROOT / "docs" / "tests.md"
DOCS_ROW = re.compile(r"^\| `(test_\w+\.py)` \| `make ([\w-]+)` \|", re.MULTILINE)
DOCS_COUNT = re.compile(r"(\d+) Python test files")
ADVICE = ("name it on the pytest line of a target in mk/<area>.mk whose target is in TEST_TARGETS, "
          "and in the table of docs/tests.md")


def make(*arguments):
    """What make prints in the checkout, run as from a shell (not as a child of the make that
    runs this test, whose flags and job server it would inherit)."""
    env = {name: value for name, value in os.environ.items()
           if name not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES", "MAKEOVERRIDES"}}
    done = subprocess.run(["make", "--no-print-directory", *arguments], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"make {' '.join(arguments)} failed: {done.stderr}"
    return done.stdout


def python_test_files():
    """The Python test files in the checkout."""
    return sorted(path.name for path in (ROOT / "Tests" / "python").glob("test_*.py"))


def named_in_code(script):
    """The test files a script names in its code: its string constants, docstrings left out
    (a docstring that mentions a test file runs nothing)."""
    tree = ast.parse(script.read_text(), str(script))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [name for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            for name in TEST_FILE.findall(node.value)]


def files_run_by(commands):
    """The test files that a dry run's commands run: named on a command line, or in the code
    of a script a command runs."""
    names = TEST_FILE.findall(commands)
    for script in dict.fromkeys(SCRIPT.findall(commands)):
        names += named_in_code(ROOT / script)
    return names


@cache
def dry_run(target):
    """The commands `make <target>` would run, a command continued with `\\` on one line."""
    return make("-n", target).replace("\\\n", " ")


@cache
def targets_of_make_test():
    """TEST_TARGETS: what `make test` runs after the build, in order."""
    return make("--eval", "print-test-targets: ; @echo $(TEST_TARGETS)", "print-test-targets").split()


def test_every_test_file_runs_in_make_test():
    run = set(files_run_by(dry_run("test")))
    missing = [name for name in python_test_files() if name not in run]
    assert not missing, f"no target of `make test` runs {missing}: {ADVICE}"


def test_every_file_make_test_names_exists():
    gone = sorted(set(files_run_by(dry_run("test"))) - set(python_test_files()))
    assert not gone, f"`make test` names test files that are not in Tests/python: {gone}"


def test_no_file_runs_twice_or_in_part():
    twice = sorted(name for name, count in Counter(files_run_by(dry_run("test"))).items() if count > 1)
    assert not twice, f"`make test` runs {twice} more than once: keep each file in one target"
    partial = [line for line in dry_run("test").splitlines() if "pytest" in line and SELECTION.search(line)]
    assert not partial, f"`make test` runs only part of a file: {partial}"


def test_the_docs_say_which_target_runs_each_file():
    """docs/tests.md has a row `| `test_x.py` | `make test-y` |` for every file, naming the
    target that runs it, and states how many files there are."""
    where = {}
    for target in targets_of_make_test():
        for name in files_run_by(dry_run(target)):
            where.setdefault(name, target)
    documented = dict(DOCS_ROW.findall(DOCS.read_text()))
    wrong = {name: (documented.get(name), where.get(name)) for name in sorted(set(where) | set(documented))
             if documented.get(name) != where.get(name)}
    assert not wrong, f"docs/tests.md's table (file: (says, runs in)) is off: {wrong}"
    counts = DOCS_COUNT.findall(DOCS.read_text())
    assert counts == [str(len(python_test_files()))], f"docs/tests.md states {counts} Python test files; there are {len(python_test_files())}"


def test_the_checks_see_what_make_runs():
    """The dry run is read as make runs it: the targets are there, a pytest line names its
    files, a script's files are found, and a docstring's mention runs nothing."""
    assert {"test-kernel", "test-claims", "test-hostile"} <= set(targets_of_make_test())
    assert "test_make_targets.py" in files_run_by(dry_run("test-claims"))
    assert files_run_by(dry_run("test-hostile")) == ["test_hostile_messages.py"]
    assert named_in_code(ROOT / "scripts" / "notebooks" / "check_claims.py") == [], \
        "check_claims.py mentions test_check_claims.py in its docstring only"
