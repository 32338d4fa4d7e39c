"""The FastAPI app: pages, their WebSockets and a small JSON API, for every table.

Built by :func:`create_app` from the running :class:`~hub.service.HubService` of each
table, so tests get the real app over real HTTP and WebSocket connections. Routes name
their table with ``?table=<id>`` (default: the first table); each route declares the
roles allowed to use it (:func:`hub.web.auth.allow`).

Public (no sign-in): ``/`` the public table view, ``/ws/public`` its feed,
``/api/public`` its snapshot, ``/api/tables``, ``/api/stats``, ``/healthz``,
``/openapi.json``. Every request meets the body cap first (:mod:`hub.web.guard`, before
any access rule); its refusals and the server's (:mod:`hub.web.server`) are counted in
``app.state.web_refusals``. The dealer console's routes are in :mod:`hub.web.console`, the
tournament clock's (pause, resume) in :mod:`hub.web.clock`, the producer's overlay in
:mod:`hub.web.overlay`, signing in and out (``/login``, ``/api/session``) in
:mod:`hub.web.session`, the admin's audit trail in :mod:`hub.web.admin`.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Mapping
from html import escape
from importlib.resources import files
from typing import Annotated, Any

from fastapi import Depends, FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from hub.feeds import Event
from hub.service import HubService
from hub.web import admin, clock, console, overlay, session
from hub.web.auth import EVERYONE, Principal, WebAuth, allow, current_principal
from hub.web.common import TableDep, pump
from hub.web.guard import BodyLimit

STATIC = files("hub.web") / "static"

DEFAULT_MAX_BODY_BYTES = 64 * 1024
"""The body cap when none is given (``[web] max_body_bytes``' default)."""

PUBLIC = allow(*EVERYONE)


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


def create_app(
    tables: Mapping[str, HubService] | HubService,
    *,
    auth: WebAuth,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
) -> FastAPI:
    """The hub's web app for ``tables`` (one service or several, by table id); request
    bodies over ``max_body_bytes`` are refused (413) before anything reads them."""
    if isinstance(tables, HubService):
        tables = {tables.table: tables}
    if not tables:
        raise ValueError("a hub serves at least one table")
    app = FastAPI(
        title="feltwire hub",
        version="0.1.0",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.tables = dict(tables)
    app.state.auth = auth
    app.state.web_refusals = Counter[str]()
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes, counts=app.state.web_refusals)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/openapi.json", include_in_schema=False)
    async def openapi(_: Annotated[Principal, Depends(PUBLIC)]) -> dict[str, Any]:
        """The app's OpenAPI schema."""
        return app.openapi()

    @app.get("/", response_class=HTMLResponse)
    async def public_page(service: TableDep, _: Annotated[Principal, Depends(PUBLIC)]) -> str:
        """The public table view (a TV in the room): board, pot, stacks, whose turn it is,
        the tournament clock, the last pot award and the dealer's alerts — no hole card."""
        return page("public.html", TABLE=service.table, TITLE=f"feltwire — {service.table}")

    @app.get("/api/tables")
    async def api_tables(_: Annotated[Principal, Depends(PUBLIC)]) -> list[dict[str, Any]]:
        """The tables this hub serves."""
        return [{"table": t, "game": s.game} for t, s in app.state.tables.items()]

    @app.get("/api/public")
    async def api_public(service: TableDep, _: Annotated[Principal, Depends(PUBLIC)]) -> Event:
        """The public snapshot of the table (no hole cards)."""
        return service.public_snapshot()

    @app.get("/api/stats")
    async def api_stats(
        service: TableDep, _: Annotated[Principal, Depends(PUBLIC)]
    ) -> dict[str, Any]:
        """Ingest counters (messages received, accepted, refused by reason, lost) and
        each node's stream: last seq, reads lost and refused over the rate, with their
        latest sequence numbers."""
        return {
            "table": service.table,
            "counters": service.counters,
            "nodes": service.ingest.nodes.stats(),
            "web": dict(app.state.web_refusals),
            "changes": service.changes,
            "subscribers": {"public": len(service.public), "overlay": len(service.overlay)},
        }

    @app.get("/healthz")
    async def healthz(_: Annotated[Principal, Depends(PUBLIC)]) -> dict[str, str]:
        """Liveness for systemd and load balancers."""
        return {"status": "ok"}

    @app.websocket("/ws/public")
    async def ws_public(
        ws: WebSocket, service: TableDep, _: Annotated[Principal, Depends(PUBLIC)]
    ) -> None:
        """Live public feed: a snapshot, then every change."""
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await pump(ws, service.public, service.public_snapshot())

    clock.register(app)
    console.register(app)
    session.register(app)
    admin.register(app)
    overlay.register(app)
    return app
