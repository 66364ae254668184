"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per browser test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
