"""Quarto and MyST cell options (issue 25): `#| key: value` and `//| key: value` lines at the
top of a cell are accepted and do not move anything: the cell runs, errors name the lines
the user sees, completion and is_complete answer at the same offsets. Then one course
notebook (01) is rendered by Sphinx with MyST-NB (the Jupyter Book 1 engine), which executes
it through the installed "swift" kernel with option lines in its cells.

Quarto cannot be installed here (PyPI's quarto-cli downloads Quarto from GitHub when it
installs; Debian has no package). mystmd (Jupyter Book 2) installs and runs the kernel, but
every export it has fetches a template from api.mystmd.org.
"""
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from benchbook_kit import ROOT
from benchbook_kit import sandbox
from benchbook_kit.kernel import complete_from_server, results, run_cell, text_of

# Connection files and other Jupyter state under each test's folder, not in the home.
pytestmark = pytest.mark.usefixtures("jupyter_directories")

OPTIONS = "#| label: fig-answer\n//| echo: false\n#| fig-cap: \"Größe, 6 × 7\"\n"


def test_option_lines_are_accepted_and_the_cell_runs(kernel):
    km, kc = kernel
    reply, outputs = run_cell(kc, OPTIONS + "let answer = 6 * 7\nprint(answer)\nanswer")
    assert reply["status"] == "ok", reply
    assert text_of(outputs) == "42\n"
    assert results(outputs) == ["42"]
    # execute_input and the history keep the cell as written.
    echoed = next(m for m in outputs if m["msg_type"] == "execute_input")
    assert echoed["content"]["code"].startswith("#| label: fig-answer\n")
    # Indented, with blank lines between, and Quarto's "//|" alone.
    reply, outputs = run_cell(kc, "\n  #| echo: true\n\n//| output: asis\nanswer + 1")
    assert reply["status"] == "ok" and results(outputs) == ["43"], (reply, outputs)


def test_errors_name_the_line_the_user_sees(kernel):
    km, kc = kernel
    reply, outputs = run_cell(kc, OPTIONS + "let x = 1\nlet y = undefinedName + x")
    assert reply["status"] == "error"
    assert "In[1], line 5, column 9" in "\n".join(reply["traceback"]), reply["traceback"]
    assert "    let y = undefinedName + x" in reply["traceback"]
    # A runtime trap names its line too.
    reply, outputs = run_cell(kc, OPTIONS + "let values = [1, 2, 3]\nlet z = values[7]")
    assert reply["status"] == "error"
    assert "line 5" in reply["evalue"], reply["evalue"]


def test_only_the_top_of_a_cell_holds_options(kernel):
    km, kc = kernel
    reply, _ = run_cell(kc, "let a = 1\n#| label: too-late")
    assert reply["status"] == "error", "a #| line after code is Swift's business, and it is not Swift"
    assert "line 2" in "\n".join(reply["traceback"])


def test_magics_below_option_lines_still_work(kernel):
    km, kc = kernel
    reply, outputs = run_cell(kc, "#| label: timing\n%timeit\nlet s = (0..<100).reduce(0, +)\n_ = s")
    assert reply["status"] == "ok", reply
    assert any("±" in text for text in results(outputs)), outputs
    run_cell(kc, "let counted = 3")
    reply, outputs = run_cell(kc, "//| echo: false\n%who Int")
    assert reply["status"] == "ok" and "counted: Int = 3" in text_of(outputs), outputs


def test_completion_and_is_complete_keep_their_offsets(kernel):
    km, kc = kernel
    run_cell(kc, "let words = [\"bench\", \"book\"]")
    code = OPTIONS + "words.jo"
    content = complete_from_server(kc, code, len(code))
    assert "joined" in " ".join(content["matches"]), content["matches"]
    assert content["cursor_end"] == len(code), "offsets count the option lines"
    assert content["cursor_start"] == len(code) - len("jo")
    msg_id = kc.is_complete(OPTIONS + "let q = 1")
    reply = kc.get_shell_msg(timeout=60)
    assert reply["content"]["status"] == "complete", reply["content"]
    msg_id = kc.is_complete(OPTIONS + "func f() {")
    reply = kc.get_shell_msg(timeout=60)
    assert reply["content"]["status"] == "incomplete", reply["content"]


NOTEBOOK = "01-loading.ipynb"


def with_option_lines(source_path, target_path):
    """The notebook with Quarto/MyST option lines on top of every code cell; the labels."""
    nb = nbformat.read(source_path, as_version=4)
    labels = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            label = f"cell-{index}"
            labels.append(label)
            cell.source = f"#| label: {label}\n//| code-fold: false\n" + cell.source
    nbformat.write(nb, target_path)
    return labels


def test_a_course_notebook_renders_through_myst_nb(tmp_path):
    book = tmp_path / "book"
    (book / "notebooks").mkdir(parents=True)
    labels = with_option_lines(ROOT / "notebooks" / NOTEBOOK, book / "notebooks" / NOTEBOOK)
    # Relative paths resolve as they do in notebooks/ (data/, models/, ../models/generated/).
    for name in ["data", "models"]:
        (book / "notebooks" / name).symlink_to(ROOT / "notebooks" / name)
    (book / "models").symlink_to(ROOT / "models")
    (book / "conf.py").write_text(
        'project = "Benchbook course"\n'
        'extensions = ["myst_nb"]\n'
        'exclude_patterns = ["_build", "**/.ipynb_checkpoints", "models", "notebooks/data", "notebooks/models"]\n'
        'nb_execution_mode = "force"        # execute every notebook, through its kernelspec ("swift")\n'
        'nb_execution_timeout = 600\n'
        'nb_execution_raise_on_error = True\n'
        'nb_execution_show_tb = True\n'
        'html_theme = "alabaster"\n')
    (book / "index.md").write_text(f"# Course\n\n```{{toctree}}\nnotebooks/{Path(NOTEBOOK).stem}\n```\n")
    env = sandbox.environment(tmp_path / "jupyter")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", str(book),
                          str(book / "_build" / "html")], env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, (run.stdout + run.stderr)[-6000:]
    page = html.unescape((book / "_build" / "html" / "notebooks" / f"{Path(NOTEBOOK).stem}.html").read_text())
    # Every code cell ran with its option lines and shows its outputs.
    for label in labels:
        assert f"#| label: {label}" in re.sub(r"<[^>]+>", "", page), label
    text = re.sub(r"<[^>]+>", "", page)
    assert "samples, top-left pixel" in text and "as stored:" in text
    assert re.search(r"runtime log lines kept out of this notebook: \d+", text)
    assert len(re.findall(r'<img[^>]+src="[^"]*\.png"', page)) >= 3, "the notebook's pictures are missing"
    for failure in ["Traceback", "CompileError", "ParseError", "error:"]:
        assert failure not in text, failure
