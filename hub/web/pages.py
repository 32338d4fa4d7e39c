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


def head(name: str, title: str | None = None) -> str:
    """What every page's ``<head>`` holds, for its ``{{HEAD}}`` placeholder: the charset,
    the viewport, the ``title`` (when the route gives one; a page whose title never
    changes writes its own ``<title>``), the page's stylesheet (``console.html`` →
    ``/static/console.css``) and, served to a signed-in user (a session), the session's
    CSRF token in ``<meta name="csrf-token">`` for the page's scripts to send back.

    >>> print(head("public.html", "feltwire — t1"))
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>feltwire — t1</title>
    <link rel="stylesheet" href="/static/public.css">
    """
    lines = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ]
    if title is not None:
        lines.append(f"<title>{title}</title>")
    lines.append(f'<link rel="stylesheet" href="/static/{name.removesuffix(".html")}.css">')
    who = current_principal.get()
    if who is not None and who.csrf:
        lines.append(f'<meta name="csrf-token" content="{escape(who.csrf)}">')
    return "\n".join(lines)


def page(name: str, **values: str) -> str:
    """A page of ``static/`` with its ``{{HEAD}}`` (:func:`head`, titled ``TITLE``) and
    its other ``{{KEY}}`` placeholders filled in."""
    html = (STATIC / name).read_text(encoding="utf-8")
    html = html.replace("{{HEAD}}", head(name, values.get("TITLE")), 1)
    for key, value in values.items():
        html = html.replace("{{" + key + "}}", value)
    return html


__all__ = ["STATIC", "head", "page"]
