"""Notebook 04 as a Voilà dashboard (issue 25): `voila` (PyPI, 0.5) started on 127.0.0.1 by
the test serves the notebook through the Swift kernel, and Debian's Chromium, driven by
Playwright, checks what a room sees: the outputs and the explorer's widgets, no code; moving
the crop threshold slider and toggling Invert change the model's input picture (pixel
difference) and the prediction follows. The page logs no error in the browser's console
(Voilà loads only the widgets' JupyterLab extension: notebooks/voila.json) and shows no
cell tagged `lab-only` (what only runs in JupyterLab: "Try:" snippets that edit code cells).

Screenshots go to .build/test-artifacts/voila/; with BENCHBOOK_RECORD_RESULTS=1 the
dashboard's screenshot is also written to results/figures/voila-explorer.png.
"""
import os
import shutil

import pytest

from benchbook_kit import ROOT
from benchbook_kit.browser import CHROMIUM, require_chromium
from benchbook_kit.screenshots import differing_share, pixels
from benchbook_kit.servers import jupyter_server

playwright = pytest.importorskip("playwright.sync_api")

NOTEBOOK = ROOT / "notebooks" / "04-preprocessing-for-photos.ipynb"
ARTEFACTS = ROOT / ".build" / "test-artifacts" / "voila"
FIGURE = ROOT / "results" / "figures" / "voila-explorer.png"


def lab_only_cells():
    """Notebook 04's cells tagged `lab-only` (at least one: the recipes' "Try:") and the number of
    "Try:" in its other markdown cells (the explorer's, which the dashboard's widgets answer)."""
    import nbformat
    nb = nbformat.read(NOTEBOOK, as_version=4)
    tagged = [c.source for c in nb.cells if "lab-only" in c.metadata.get("tags", [])]
    assert tagged, "notebook 04 has no cell tagged lab-only"
    shown_tries = sum(c.source.count("Try:") for c in nb.cells
                      if c.cell_type == "markdown" and "lab-only" not in c.metadata.get("tags", []))
    return tagged, shown_tries


def lab_only_snippets(cells):
    """Lines of the lab-only cells that would show on the page as they are (code lines and
    prose lines without markup), for a search in the page's text."""
    lines = set()
    for source in cells:
        for line in source.splitlines():
            line = line.strip()
            if len(line) > 20 and not any(mark in line for mark in "*`_#"):
                lines.add(line)
    return lines


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    """Voilà serving notebook 04 (from notebooks/, where its data and models are)."""
    require_chromium()
    root = tmp_path_factory.mktemp("voila")
    with jupyter_server("voila", root, notebook=NOTEBOOK) as server:
        yield server.base, server.token, root


WATCH_SOURCE = """() => {
    const img = document.querySelector('img.bb-model-input');
    window.__bbChanges = 0;
    new MutationObserver(() => window.__bbChanges += 1).observe(img, {attributes: true, attributeFilter: ['src']});
}"""


def changed_after(page, action, timeout=60):
    """Runs `action` and waits until the model input's picture has been replaced."""
    before = page.evaluate("window.__bbChanges")
    action()
    page.wait_for_function(f"() => window.__bbChanges > {before}", timeout=timeout * 1000)
    page.wait_for_timeout(500)   # the prediction is set in the same callback, just after


def test_the_dashboard_shows_widgets_and_no_code_and_follows_the_controls(voila):
    base, token, root = voila
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        # Chromium's own caches (dconf, fonts) go under the test's folder too.
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"],
                                    env={**os.environ, "XDG_CACHE_HOME": str(root / "cache"),
                                         "XDG_CONFIG_HOME": str(root / "config")})
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        # Voilà's template links Font Awesome from cdn.jsdelivr.net; nothing of the test leaves
        # the machine (which may be offline): an empty stylesheet answers, so that the console
        # holds the page's own errors only.
        page.route("https://cdn.jsdelivr.net/**", lambda route: route.fulfill(status=200, content_type="text/css", body=""))
        console, errors = [], []
        page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
        try:
            # Voilà runs the whole notebook before it sends the page.
            page.goto(f"{base}/?token={token}", timeout=600_000)
            model_input = page.wait_for_selector("img.bb-model-input[src^='blob:']", timeout=600_000)
            prediction = page.locator(".bb-prediction")
            page.wait_for_function("() => document.querySelector('.bb-prediction').innerText.includes('Predicted')",
                                   timeout=60_000)

            # What the room sees: the lesson's words and outputs, the controls, no code.
            text = page.inner_text("body")
            assert "Live explorer (widgets)" in text and "Accuracy of each recipe" in text
            for code in ["let explorerPhotos", "func explorerRecipe", "interact(", "import Foundation"]:
                assert code not in text, f"code shown: {code}"
            # (markdown cells are rendered inside .jp-InputArea too: only code inputs count)
            assert page.locator(".jp-CodeCell .jp-InputArea, .jp-InputArea-editor, .cm-editor, .CodeMirror").count() == 0
            assert page.locator(".jp-OutputArea-output img").count() >= 4, "the notebook's charts are missing"
            # Nothing that only runs in JupyterLab: the cells tagged lab-only are not on the page.
            tagged, shown_tries = lab_only_cells()
            assert text.count("Try:") == shown_tries, "a Lab-only \"Try:\" is shown"
            snippets = lab_only_snippets(tagged)
            assert snippets and not [line for line in snippets if line in text], "a lab-only cell is shown"
            for control in [".bb-threshold .noUi-handle", ".bb-invert input[type=checkbox]", ".widget-dropdown select",
                            ".widget-toggle-buttons button"]:
                assert page.locator(control).count() >= 1, control

            page.locator(".bb-threshold").scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            page.screenshot(path=ARTEFACTS / "1-dashboard.png")
            first_image, first_text = pixels(model_input.screenshot()), prediction.inner_text()
            page.evaluate(WATCH_SOURCE)

            # The crop threshold slider by keyboard (one step of 4 per arrow), down to 8: on
            # this background the crop then keeps the whole frame.
            readout = page.locator(".bb-threshold .widget-readout")
            handle = page.locator(".bb-threshold .noUi-handle")
            handle.focus()
            changed_after(page, lambda: [page.keyboard.press("ArrowLeft") for _ in range(10)])
            page.wait_for_function("() => document.querySelector('.bb-threshold .widget-readout').innerText.trim() == '8'",
                                   timeout=30_000)
            page.wait_for_timeout(1500)   # the kernel works through the arrow steps
            page.screenshot(path=ARTEFACTS / "2-threshold-8.png")
            moved_image, moved_text = pixels(model_input.screenshot()), prediction.inner_text()
            assert readout.inner_text().strip() == "8"
            assert differing_share(first_image, moved_image) > 0.01, "the model input did not follow the threshold"

            # Invert off: the picture's polarity flips and the prediction changes.
            changed_after(page, lambda: page.locator(".bb-invert input[type=checkbox]").click())
            page.screenshot(path=ARTEFACTS / "3-invert-off.png")
            inverted_image, inverted_text = pixels(model_input.screenshot()), prediction.inner_text()
            assert differing_share(moved_image, inverted_image) > 0.2, "the model input did not follow Invert"
            assert inverted_text != moved_text and "Predicted" in inverted_text, (moved_text, inverted_text)
            assert first_text and "Predicted" in first_text

            # Back to the notebook's settings for the figure.
            changed_after(page, lambda: page.locator(".bb-invert input[type=checkbox]").click())
            handle.focus()
            changed_after(page, lambda: [page.keyboard.press("ArrowRight") for _ in range(10)])
            page.wait_for_timeout(1500)
            page.locator(".bb-threshold").scroll_into_view_if_needed()
            page.screenshot(path=ARTEFACTS / "4-explorer.png")
            # After loading, running every cell and three rounds of the widgets: no error in
            # the console (extensions Voilà cannot host, failed loads, uncaught exceptions).
            assert not errors, "errors in the browser's console:\n" + "\n".join(errors)
            if os.environ.get("BENCHBOOK_RECORD_RESULTS") == "1":
                FIGURE.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ARTEFACTS / "4-explorer.png", FIGURE)
        except Exception:
            page.screenshot(path=ARTEFACTS / "failure.png", full_page=True)
            shutil.copy(root / "voila.log", ARTEFACTS / "voila.log")
            raise
        finally:
            (ARTEFACTS / "console.txt").write_text("\n".join(console))
            browser.close()
