"""Debian's Chromium for the browser tests, driven by Playwright (browser downloads do not
work here, so Playwright is pointed at the system's build).

    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
"""
import os
from pathlib import Path

CHROMIUM = os.environ.get("BENCHBOOK_CHROMIUM", "/usr/bin/chromium")


def require_chromium():
    """Skips the calling test when Chromium is missing; under CI (CI set), fails instead, as a
    missing dependency must not pass unnoticed there."""
    import pytest
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium (scripts/apt-packages.txt)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
