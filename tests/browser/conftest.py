"""The browser tests' fixture: a headless Chromium (:mod:`tests.support.browser`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.support.browser import headless_chromium


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (scripts/test installs it)."""
    async with headless_chromium() as b:
        yield b
