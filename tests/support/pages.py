"""Where the pages live and how a test reaches their feeds."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

STATIC = Path(__file__).resolve().parents[2] / "hub" / "web" / "static"
"""The pages' static files (HTML, CSS, the ES modules)."""


def ws_url(page: str, path: str) -> str:
    """The WebSocket URL ``path`` on the page's server, with the page's query (its token)."""
    parts = urlsplit(page)
    return urlunsplit(("ws", parts.netloc, path, parts.query, ""))
