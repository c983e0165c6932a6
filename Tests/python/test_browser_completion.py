"""Completion and inspection as a student meets them: JupyterLab 4 in Debian's Chromium,
driven by Playwright (issue 23).

A notebook loads a photo; in the next cell the test types what a student types and presses
Tab or Shift-Tab, then reads the editor and the completer or tooltip:
- overloaded methods (`photo.grays`, `photo.resiz`): Tab lists the method and Enter
  inserts its name and an opening parenthesis, never empty argument slots;
- Shift-Tab while typing an argument label (`try Model(contentsOf`) shows the
  initialiser's signature and documentation.

Screenshots of each step are kept in .build/test-artifacts/browser-completion/ (gitignored).
"""
import os
import shutil
import time

import nbformat
import pytest

from benchbook_kit import ROOT
from benchbook_kit.browser import CHROMIUM, require_chromium
from benchbook_kit.kernel import KERNEL_NAME
from benchbook_kit.servers import jupyter_server
from benchbook_kit.skips import skip_or_fail

playwright = pytest.importorskip("playwright.sync_api")

ARTEFACTS = ROOT / ".build" / "test-artifacts" / "browser-completion"
PHOTO = ROOT / "notebooks" / "data" / "photos" / "chelsea.png"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving a two-cell notebook in a temporary directory."""
    require_chromium()
    if not PHOTO.exists():
        skip_or_fail(f"{PHOTO} is missing: run `make notebook-data`")
    root = tmp_path_factory.mktemp("lab")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": KERNEL_NAME, "display_name": "Swift", "language": "swift"}
    notebook.cells = [nbformat.v4.new_code_cell(f'let photo = try Image(contentsOfFile: "{PHOTO}")'),
                      nbformat.v4.new_code_cell("")]
    nbformat.write(notebook, root / "completion.ipynb")
    with jupyter_server("lab", root) as server:
        yield server.base, server.token, root


COMPLETER_ITEMS = """() => {
    const completer = document.querySelector('.jp-Completer');
    if (!completer || completer.classList.contains('lm-mod-hidden')) return null;
    return [...completer.querySelectorAll('.jp-Completer-item .jp-Completer-match')].map(item => item.innerText);
}"""


def open_and_run_first_cell(page, url):
    """Opens a notebook in JupyterLab, runs its first cell, and returns the second cell's editor."""
    page.goto(url)
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    page.wait_for_function("() => !document.body.innerText.includes('Kernel starting')", timeout=120_000)
    time.sleep(2)
    cells = page.locator(".jp-Notebook .jp-CodeCell")
    cells.nth(0).locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    page.wait_for_function("() => document.querySelector('.jp-InputArea-prompt').innerText.includes('[1]')",
                           timeout=120_000)
    return cells.nth(1).locator(".cm-content")


def test_tab_inserts_names_and_shift_tab_shows_the_call(lab):
    base, token, root = lab
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        try:
            editor = open_and_run_first_cell(page, f"{base}/lab/tree/completion.ipynb?token={token}")

            def type_fresh(text):
                editor.click()
                page.keyboard.press("Control+A")
                page.keyboard.press("Delete")
                page.keyboard.type(text)

            for typed, expected in [("photo.grays", "photo.grayscale("), ("photo.resiz", "photo.resized(")]:
                # The first request may start SourceKit-LSP and answer from the fallback
                # (which has no members of a value): ask until the language server answers.
                for _ in range(6):
                    type_fresh(typed)
                    page.keyboard.press("Tab")
                    items, deadline = None, time.time() + 10
                    while time.time() < deadline:
                        items = page.evaluate(COMPLETER_ITEMS)
                        if items or editor.inner_text() != typed:
                            break
                        time.sleep(0.2)
                    if items or editor.inner_text() != typed:
                        break
                    page.keyboard.press("Escape")
                page.screenshot(path=ARTEFACTS / f"{typed.replace('.', '-')}-tab.png")
                if items:
                    assert expected.split(".")[1] in items, items
                    assert not any(", " in item or ": )" in item for item in items), f"empty argument slots: {items}"
                    page.keyboard.press("Enter")
                page.wait_for_function(f"() => document.querySelectorAll('.jp-CodeCell .cm-content')[1].innerText == {expected!r}",
                                       timeout=10_000)
                page.keyboard.press("Escape")

            # A language server still busy with an earlier request answers from the
            # fallback; a student presses Shift-Tab again.
            text = ""
            for _ in range(6):
                type_fresh("let model = try Model(contentsOf")
                page.keyboard.press("Shift+Tab")
                try:
                    text = page.wait_for_selector(".jp-Tooltip", timeout=10_000).inner_text()
                except Exception:
                    text = ""
                if "Model(contentsOf: String" in text:
                    break
                page.keyboard.press("Escape")
                time.sleep(1)
            page.screenshot(path=ARTEFACTS / "model-shift-tab.png")
            assert "Model(contentsOf: String" in text and "Loads a model file" in text, text
        except Exception:
            page.screenshot(path=ARTEFACTS / "failure.png", full_page=True)
            shutil.copy(root / "jupyterlab.log", ARTEFACTS / "jupyterlab.log")
            raise
        finally:
            browser.close()


# The idle stop in JupyterLab (issue 34): SourceKit-LSP stops after BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS
# without a request; the first Tab after it must still list matches, since JupyterLab drops a
# provider's answer after 1,000 ms (providerTimeout) and starting the server takes longer. The
# suite idles 9 s, past a 3 s stop and the library's API read 5 s after the first cell; `make test-completion-idle` runs a student's case: the default
# stop (60 s), 90 s of reading before each Tab, five tries, also beside two busy loops.
IDLE_STOP = os.environ.get("BENCHBOOK_IDLE_TEST_STOP", "3")
IDLE_SECONDS = float(os.environ.get("BENCHBOOK_IDLE_TEST_SECONDS", "9"))
IDLE_TRIES = int(os.environ.get("BENCHBOOK_IDLE_TEST_TRIES", "2"))


@pytest.fixture(scope="module")
def idle_lab(tmp_path_factory):
    require_chromium()
    root = tmp_path_factory.mktemp("idle-lab")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": KERNEL_NAME, "display_name": "Swift", "language": "swift"}
    notebook.cells = [nbformat.v4.new_code_cell('let learningRate = 0.01'), nbformat.v4.new_code_cell("")]
    nbformat.write(notebook, root / "idle.ipynb")
    env = {"BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS": IDLE_STOP} if IDLE_STOP else {}
    with jupyter_server("lab", root, env=env) as server:
        yield server.base, server.token, root, server.process.pid


def language_servers(pid):
    import psutil
    try:
        return [p for p in psutil.Process(pid).children(recursive=True) if p.name() == "sourcekit-lsp"]
    except psutil.NoSuchProcess:
        return []


def test_the_first_tab_after_the_idle_stop_lists_matches(idle_lab):
    """Each try: rest past the idle stop (no language server left), type `Tens` (a library
    type) and `learningR` (a notebook name), press Tab once each, and read the completer. The
    answers come from the notebook's names and the library's API while SourceKit-LSP starts."""
    base, token, root, pid = idle_lab
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    seen = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        try:
            editor = open_and_run_first_cell(page, f"{base}/lab/tree/idle.ipynb?token={token}")
            for attempt in range(IDLE_TRIES):
                for typed, expected in [("Tens", "Tensor"), ("learningR", "learningRate")]:
                    rested = time.time()
                    time.sleep(IDLE_SECONDS)
                    deadline = time.time() + 60   # a hang guard: the stop is due IDLE_STOP s after the last request
                    while language_servers(pid) and time.time() < deadline:
                        time.sleep(0.5)
                    assert not language_servers(pid), "SourceKit-LSP was still running after the idle stop"
                    editor.click()
                    page.keyboard.press("Control+A")
                    page.keyboard.press("Delete")
                    page.keyboard.type(typed)
                    pressed = time.time()
                    page.keyboard.press("Tab")   # once: a student whose Tab shows nothing gives up
                    items = None
                    while time.time() < pressed + 10:
                        items = page.evaluate(COMPLETER_ITEMS)
                        if items or editor.inner_text() != typed:
                            break
                        time.sleep(0.05)
                    shown = time.time() - pressed
                    page.screenshot(path=ARTEFACTS / f"idle-{attempt + 1}-{typed}.png")
                    completed = editor.inner_text()
                    seen.append(f"try {attempt + 1}, {typed!r} after {time.time() - rested - shown:.0f} s idle: "
                                f"{'list' if items else 'inserted ' + repr(completed)} in {shown:.2f} s")
                    # A single match is inserted at once (no list); several are listed.
                    assert (items and expected in items) or completed.startswith(expected), (typed, items, completed)
                    page.keyboard.press("Escape")
        except Exception:
            page.screenshot(path=ARTEFACTS / "idle-failure.png", full_page=True)
            shutil.copy(root / "jupyterlab.log", ARTEFACTS / "idle-jupyterlab.log")
            raise
        finally:
            browser.close()
            (ARTEFACTS / "idle.txt").write_text("\n".join(seen) + "\n")
            print("\n".join(seen))
