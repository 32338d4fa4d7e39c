"""The hub's HTML pages: the files of ``static/`` with their placeholders filled in.

Every page route returns :func:`page` (``page("console.html", TITLE=…)``); the page's
scripts and styles are served from ``/static`` (:data:`STATIC`), nothing from a CDN.
"""

from __future__ import annotations

from html import escape
from importlib.resources import files

from hub.web.auth import current_principal

STATIC = files("hub.web") / "static"
"""The directory of the pages, their scripts and styles (mounted at ``/static``)."""


def page(name: str, **values: str) -> str:
    """A page of ``static/`` with its ``{{KEY}}`` placeholders filled in; served to a
    signed-in user (a session), it carries the session's CSRF token in
    ``<meta name="csrf-token">`` for the page's scripts to send back."""
    html = (STATIC / name).read_text(encoding="utf-8")
    for key, value in values.items():
        html = html.replace("{{" + key + "}}", value)
    who = current_principal.get()
    if who is not None and who.csrf:
        meta = f'<meta name="csrf-token" content="{escape(who.csrf)}">\n'
        html = html.replace("</head>", meta + "</head>", 1)
    return html


__all__ = ["STATIC", "page"]
