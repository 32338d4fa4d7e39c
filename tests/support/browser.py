"""Debian's Chromium, headless, driven by Playwright (scripts/test installs it; no browser
download): the ``browser`` fixture in ``tests/browser/conftest.py`` hands one to a test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@asynccontextmanager
async def headless_chromium() -> AsyncIterator[Any]:
    """A Playwright browser on :data:`CHROMIUM`, closed afterwards; fails the test when
    Chromium is not installed."""
    from playwright.async_api import async_playwright

    if not os.path.exists(CHROMIUM):  # noqa: ASYNC240 - a single stat at setup
        pytest.fail("chromium is not installed: run ./scripts/test, which installs it")
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            await b.close()
