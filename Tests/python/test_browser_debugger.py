"""JupyterLab's debugger as a student meets it (issue 50, phase 1): JupyterLab 4 in Debian's
Chromium, driven by Playwright. The bug icon is enabled for the Swift kernel; switched on, it
opens the debugger's sidebar, and after a cell runs the Variables panel lists the notebook's
variables with their Swift types; a struct opens to its fields.

Screenshots of each step are kept in .build/test-artifacts/browser-debugger/ (gitignored).
"""
import nbformat
import pytest

from benchbook_kit import ROOT
from benchbook_kit.browser import CHROMIUM, require_chromium
from benchbook_kit.kernel import KERNEL_NAME
from benchbook_kit.servers import jupyter_server

playwright = pytest.importorskip("playwright.sync_api")

ARTEFACTS = ROOT / ".build" / "test-artifacts" / "browser-debugger"

CELL = ("struct Point { var x: Int; var y: Int }\nlet origin = Point(x: 3, y: 4)\nvar count = 42\n"
        "let t = try Tensor(shape: [2, 2], float32: [1, 2, 3, 6])")

VARIABLE_ROWS = """() => {
    const panel = document.querySelector('.jp-DebuggerVariables');
    if (!panel) return null;
    return [...panel.querySelectorAll('.jp-DebuggerVariables-name')].map(n => n.innerText.replace(/:$/, ''));
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving a one-cell notebook in a temporary directory."""
    require_chromium()
    root = tmp_path_factory.mktemp("lab")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": KERNEL_NAME, "display_name": "Swift", "language": "swift"}
    notebook.cells = [nbformat.v4.new_code_cell(CELL)]
    nbformat.write(notebook, root / "debugger.ipynb")
    with jupyter_server("lab", root) as server:
        yield server.base, server.token


def test_the_variables_panel_lists_the_notebooks_variables(lab):
    base, token = lab
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            page.goto(f"{base}/lab/tree/debugger.ipynb?token={token}")
            page.wait_for_selector(".jp-Notebook", timeout=120_000)
            bug = page.locator(".jp-DebuggerBugButton")
            # Enabled once JupyterLab has read the kernelspec and the kernel is up.
            page.wait_for_function("() => { const b = document.querySelector('.jp-DebuggerBugButton');"
                                   " return b && b.getAttribute('aria-disabled') === 'false'; }", timeout=120_000)
            page.screenshot(path=str(ARTEFACTS / "1-bug-icon-enabled.png"))
            bug.click()
            page.wait_for_function("() => document.querySelector('.jp-DebuggerBugButton').getAttribute('aria-pressed') === 'true'",
                                   timeout=60_000)
            page.locator(".jp-Notebook .jp-CodeCell").nth(0).locator(".cm-content").click()
            page.keyboard.press("Shift+Enter")
            page.wait_for_function("() => document.querySelector('.jp-InputArea-prompt').innerText.includes('[1]')",
                                   timeout=120_000)
            page.wait_for_function(f"() => {{ const rows = ({VARIABLE_ROWS})(); return rows && rows.length === 3; }}",
                                   timeout=60_000)
            assert page.evaluate(VARIABLE_ROWS) == ["count", "origin", "t"]
            panel = page.locator(".jp-DebuggerVariables")
            assert panel.inner_text().split() == ["count", "Int", "origin", "Point", "t", "Tensor"]
            page.screenshot(path=str(ARTEFACTS / "2-variables.png"))
            # A struct opens to its fields (the `variables` request).
            panel.locator(".jp-DebuggerVariables-name", has_text="origin").click()
            page.wait_for_function(f"() => {{ const rows = ({VARIABLE_ROWS})(); return rows && rows.length === 5; }}",
                                   timeout=60_000)
            assert page.evaluate(VARIABLE_ROWS) == ["count", "origin", "x", "y", "t"]
            page.screenshot(path=str(ARTEFACTS / "3-struct-fields.png"))
        finally:
            page.screenshot(path=str(ARTEFACTS / "last.png"))
            browser.close()
