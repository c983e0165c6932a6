"""Debian's Chromium for the browser tests, driven by Playwright (browser downloads do not
work here, so Playwright is pointed at the system's build).

    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
"""
import os
from pathlib import Path

from .skips import skip_or_fail

CHROMIUM = os.environ.get("BENCHBOOK_CHROMIUM", "/usr/bin/chromium")


def require_chromium():
    """Skips the calling test when Chromium is missing (fails under CI: skip_or_fail)."""
    if not Path(CHROMIUM).exists():
        skip_or_fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/apt-packages.txt)")
