"""The live explorer of notebook 04 in a real browser (issue 14): JupyterLab 4 with the
ipywidgets 8 extension, started by the test on 127.0.0.1 (a free port, a token), driven
through Debian's Chromium by Playwright. The test runs the notebook, moves the crop
threshold slider and toggles Invert, and checks that the 28x28 model input changes (pixel
difference) and the prediction text follows.

Measured: time from a threshold typed into the slider's readout (Enter) to the new
model-input image in the page (a MutationObserver on the image's `src`), over several
steps; the median is printed and, with BENCHBOOK_RECORD_RESULTS=1, written to
results/widget-latency.json.

Screenshots of each step are kept in .build/test-artifacts/browser-widgets/ (gitignored).
"""
import json
import os
import shutil
import statistics
import time
from pathlib import Path

import pytest

from benchbook_kit import ROOT
from benchbook_kit.browser import CHROMIUM, require_chromium
from benchbook_kit.screenshots import differing_share, pixels
from benchbook_kit.servers import jupyter_server

playwright = pytest.importorskip("playwright.sync_api")

NOTEBOOK = "04-preprocessing-for-photos.ipynb"
ARTEFACTS = ROOT / ".build" / "test-artifacts" / "browser-widgets"
STEPS = int(os.environ.get("BENCHBOOK_BROWSER_STEPS", "12"))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving a copy of notebook 04 (its data and models linked), so nothing the
    browser saves touches the repository."""
    require_chromium()
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, root / NOTEBOOK)
    for name in ["data", "models"]:
        (root / name).symlink_to(ROOT / "notebooks" / name)
    # JupyterLab saves its workspace (open notebooks, layout) and settings under the user's
    # Jupyter config directory: a teacher's next `jupyter lab` would reopen this notebook.
    # The server's directories are the test's (jupyter_server), and the user's are checked
    # untouched below.
    home_lab = Path(os.environ.get("JUPYTER_CONFIG_DIR", Path.home() / ".jupyter")) / "lab"
    home_before = sorted(home_lab.rglob("*")) if home_lab.exists() else []
    with jupyter_server("lab", root, arguments=["--ServerApp.disable_check_xsrf=False"]) as server:
        yield server.base, server.token, root
    home_after = sorted(home_lab.rglob("*")) if home_lab.exists() else []
    assert home_after == home_before, f"JupyterLab state left in {home_lab}: {sorted(set(home_after) - set(home_before))}"
    workspaces = Path(server.env["JUPYTER_CONFIG_DIR"]) / "lab" / "workspaces"
    assert workspaces.is_dir(), f"the test's JupyterLab saved no workspace in {workspaces}"


WATCH_SOURCE = """() => {
    const img = document.querySelector('img.bb-model-input');
    window.__bbChanges = [];
    new MutationObserver(() => window.__bbChanges.push(performance.now()))
        .observe(img, {attributes: true, attributeFilter: ['src']});
}"""


def wait_for_change(page, count, timeout=30):
    page.wait_for_function(f"() => window.__bbChanges.length > {count}", timeout=timeout * 1000)
    return page.evaluate("window.__bbChanges")[-1]


def test_the_explorer_follows_the_threshold_slider_and_invert(lab):
    base, token, root = lab
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        console = []
        page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
        try:
            page.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}")
            page.wait_for_selector(".jp-Notebook", timeout=120_000)
            # The kernel is ready when the status bar says Idle.
            page.wait_for_function(
                "() => document.querySelector('.jp-Notebook') && !document.body.innerText.includes('Kernel starting')",
                timeout=120_000)
            time.sleep(2)
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            model_input = page.wait_for_selector("img.bb-model-input[src^='blob:']", timeout=300_000)
            prediction = page.locator(".bb-prediction")
            prediction.scroll_into_view_if_needed()
            page.wait_for_function("() => document.querySelector('.bb-prediction').innerText.includes('Predicted')",
                                   timeout=60_000)
            # Wait until the notebook has finished (no cell queued or running).
            page.wait_for_function("() => document.querySelectorAll('.jp-InputArea-prompt').length > 0 && "
                                   "![...document.querySelectorAll('.jp-InputArea-prompt')].some(e => e.innerText.includes('*'))",
                                   timeout=300_000)
            page.locator(".bb-threshold").scroll_into_view_if_needed()
            page.screenshot(path=ARTEFACTS / "1-after-run.png", full_page=False)
            first_image = pixels(model_input.screenshot())
            first_text = prediction.inner_text()
            page.evaluate(WATCH_SOURCE)

            # Threshold by keyboard: the slider's handle takes arrow keys, one step (4) per press.
            page.locator(".bb-threshold .noUi-handle").focus()
            for _ in range(3):
                page.keyboard.press("ArrowRight")
            readout = page.locator(".bb-threshold .widget-readout")
            page.wait_for_function("() => document.querySelector('.bb-threshold .widget-readout').innerText.trim() == '60'",
                                   timeout=30_000)
            page.wait_for_timeout(1500)   # let the kernel finish the arrow steps

            # Latency: the threshold typed into the slider's readout, alternating between a
            # value that crops to the item (48) and one that keeps the whole frame (8), so
            # every change makes a different model input.
            latencies = []
            for step in range(STEPS):
                before = len(page.evaluate("window.__bbChanges"))
                readout.click()
                page.keyboard.press("Control+A")
                page.keyboard.type("8" if step % 2 == 0 else "48")
                started = page.evaluate("performance.now()")
                page.keyboard.press("Enter")
                latencies.append(wait_for_change(page, before) - started)
                page.wait_for_timeout(200)
            # Ends at 8 (an odd number of steps) or set it now: the whole frame.
            if STEPS % 2 == 0:
                before = len(page.evaluate("window.__bbChanges"))
                readout.click()
                page.keyboard.press("Control+A")
                page.keyboard.type("8")
                page.keyboard.press("Enter")
                wait_for_change(page, before)
            page.wait_for_timeout(500)
            page.screenshot(path=ARTEFACTS / "2-threshold-8.png")
            moved_image = pixels(model_input.screenshot())
            moved_text = prediction.inner_text()
            assert readout.inner_text().strip() == "8"
            assert differing_share(first_image, moved_image) > 0.01, "the model input did not change with the threshold"

            # Invert: one click on the check box.
            before = len(page.evaluate("window.__bbChanges"))
            page.locator(".bb-invert input[type=checkbox]").click()
            wait_for_change(page, before)
            page.wait_for_timeout(500)
            page.screenshot(path=ARTEFACTS / "3-invert-off.png")
            inverted_image = pixels(model_input.screenshot())
            inverted_text = prediction.inner_text()
            assert differing_share(moved_image, inverted_image) > 0.2, "the model input did not change with Invert"
            assert inverted_text != moved_text and "Predicted" in inverted_text, (moved_text, inverted_text)
        except Exception:
            page.screenshot(path=ARTEFACTS / "failure.png", full_page=True)
            (ARTEFACTS / "console.txt").write_text("\n".join(console))
            # Every cell's prompt and output text: an error above the viewport (which stops
            # Run All) is not in the screenshot.
            cells = page.evaluate("""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].map(cell =>
                (cell.querySelector('.jp-InputArea-prompt')?.innerText ?? '') + '\\n' +
                [...cell.querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText.slice(0, 2000)).join('\\n'))""")
            (ARTEFACTS / "cells.txt").write_text("\n\n".join(cells))
            shutil.copy(root / "jupyterlab.log", ARTEFACTS / "jupyterlab.log")
            raise
        finally:
            browser.close()

    median = statistics.median(latencies)
    print(f"threshold change to new model-input image: median {median:.0f} ms, "
          f"min {min(latencies):.0f}, max {max(latencies):.0f} ms over {len(latencies)} steps")
    (ARTEFACTS / "latency.json").write_text(json.dumps({"latencies_ms": latencies, "median_ms": median}, indent=1))
    if os.environ.get("BENCHBOOK_RECORD_RESULTS") == "1":
        record = {"what": "crop-threshold value entered in the slider readout (Enter) to the updated 28x28 model-input image in JupyterLab (notebook 04 explorer)",
                  "browser": "Debian chromium (headless) via Playwright", "steps": len(latencies),
                  "median_ms": round(median, 1), "min_ms": round(min(latencies), 1),
                  "max_ms": round(max(latencies), 1), "latencies_ms": [round(v, 1) for v in latencies],
                  "load_average": os.getloadavg()}
        (ROOT / "results" / "widget-latency.json").write_text(json.dumps(record, indent=1) + "\n")
    assert first_text and moved_text
