"""The public side of the hub: the table view a TV in the room shows, its feed, and the
small JSON API anyone may read (never a hole card). No sign-in; every route lets all in.

* ``GET /`` — the public table view (``static/public.html``);
* ``WS /ws/public`` — its feed: a snapshot, then every change (a security alert only as
  the neutral notice ``floor_called``: the console and the floor get the alert itself);
* ``GET /api/public`` — that snapshot; ``GET /tables`` (or ``/api/tables``) — the
  tables served (in a card room of several hubs: every table, which hub serves it, and
  the room's hubs), the one route any origin may read (CORS);
* ``GET /api/stats`` — ingest counters, each node's stream, the web side's refusals;
* ``GET /healthz`` — liveness (what it checked, the tables, the uptime, as JSON);
  ``GET /readyz`` — readiness (the broker connected, the event logs writable, every known
  node online), each part named;
* ``GET /openapi.json`` — the app's OpenAPI schema.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse

from hub.views.frames import Event
from hub.views.public import public_frame, public_snapshot
from hub.web.dependencies import PublicDep, ReaderDep, stream, tables_of
from hub.web.pages import page
from hub.web.tables import RoomDirectory

router = APIRouter()

TABLES_CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "Link",
    "Cache-Control": "no-store",
}
"""``/tables``' headers: any page may read it (where each table is served, which hubs
make the room — public, never a card), always as it is now."""


@router.get("/openapi.json", include_in_schema=False)
async def openapi(request: Request, _: PublicDep) -> dict[str, Any]:
    """The app's OpenAPI schema."""
    schema: dict[str, Any] = request.app.openapi()
    return schema


@router.get("/", response_class=HTMLResponse)
async def public_page(service: ReaderDep, _: PublicDep) -> str:
    """The public table view (a TV in the room): board, pot, stacks, whose turn it is,
    the tournament clock, the last pot award and the dealer's alerts — no hole card."""
    return page("public.html", TABLE=service.table, TITLE=f"feltwire — {service.table}")


@router.get("/tables")
@router.get("/api/tables")
async def api_tables(request: Request, response: Response, _: PublicDep) -> list[dict[str, Any]]:
    """The tables: ``table``, ``game`` and ``here`` (this hub serves it). In a card room
    of several hubs, every table of the room, each with the hub that serves it now and
    that hub's web address (``hub``, ``url``: null while the table moves to another hub);
    any hub of the room answers the same, and names every hub of the room alive in a
    ``Link`` header (``<http://hub-b:8080/tables>; rel="alternate"``, this hub's first).

    Readable from any origin (``Access-Control-Allow-Origin: *``, the ``Link`` header
    exposed): a page whose hub died asks the room's other hubs where its table went
    (``static/lib/feed.js``). It holds no card and no secret; no other route is readable
    cross-origin."""
    response.headers.update(TABLES_CORS)
    room: RoomDirectory | None = request.app.state.room
    if room is None:
        return [{"table": t, "game": s.game, "here": True} for t, s in tables_of(request).items()]
    response.headers["Link"] = ", ".join(
        f'<{u.rstrip("/")}/tables>; rel="alternate"' for u in room.hubs()
    )
    return [
        {"table": p.table, "game": p.game, "here": p.here, "hub": p.hub, "url": p.url}
        for p in room.places()
    ]


@router.get("/api/public")
async def api_public(service: ReaderDep, _: PublicDep) -> Event:
    """The public snapshot of the table (no hole cards; a security alert only as the
    floor notice — :mod:`hub.views.public`)."""
    return public_snapshot(service.public_snapshot())


@router.get("/api/stats")
async def api_stats(request: Request, service: ReaderDep, _: PublicDep) -> dict[str, Any]:
    """Ingest counters (messages received, accepted, refused by reason, lost) and
    each node's stream: last seq, reads lost and refused over the rate, with their
    latest sequence numbers."""
    return {
        "table": service.table,
        "counters": dict(service.counters),
        "nodes": dict(service.node_stats()),
        "web": dict(request.app.state.web_refusals),
        "changes": service.changes,
        "subscribers": {"public": len(service.public), "overlay": len(service.overlay)},
    }


@router.get("/healthz")
async def healthz(request: Request, _: PublicDep) -> dict[str, Any]:
    """Liveness for systemd and load balancers: 200 while the process serves. It checks
    that the hub's event loop answers (it runs every table, the MQTT ingest and the web)
    and names the tables it serves; whether the hub is ready — the broker, the event
    log, the nodes — is ``/readyz``'s question."""
    state = request.app.state
    return {
        "status": "ok",
        "checks": {"event_loop": "ok"},
        "tables": list(tables_of(request)),
        "uptime_s": round(state.monotonic() - state.started, 1),
    }


@router.get("/readyz", responses={503: {"description": "a part is not ready"}})
async def readyz(request: Request, _: PublicDep) -> JSONResponse:
    """Readiness: 200 when the broker is connected, every table's event log writable (or
    none kept) and every known node online; 503 otherwise. The body names each part —
    ``{"ready", "broker": {"ok"}, "event_log": {table: {"ok", "problem"?}}, "nodes":
    {"table/node": {"ok", "state"}}}`` — and never a card. An event log is writable when
    its last write did not fail and its disk, looked at without writing (at most every
    ``[health] log_check_s``), is writable with ``log_min_free_mb`` free; ``problem``
    says what is wrong."""
    reports = {t: s.health() for t, s in tables_of(request).items()}
    room: RoomDirectory | None = request.app.state.room
    # a hub of a room may serve no table for a while: then it has no broker link to need
    broker = (bool(reports) or room is not None) and all(r["broker"] for r in reports.values())
    logs = {
        t: {"ok": r["event_log"]} | ({"problem": r["log_problem"]} if r["log_problem"] else {})
        for t, r in reports.items()
        if r["event_log"] is not None
    }
    nodes = {
        f"{t}/{node}": {"ok": state == "online", "state": state}
        for t, r in reports.items()
        for node, state in r["nodes"].items()
    }
    silent = {
        f"{t}/{reader}": {"ok": False, "state": "silent"}
        for t, r in reports.items()
        for reader in r["silent_readers"]
    }
    ready = broker and all(p["ok"] for p in [*logs.values(), *nodes.values()])
    body: dict[str, Any] = {
        "ready": ready,
        "broker": {"ok": broker},
        "event_log": logs,
        "nodes": nodes,
        "readers": silent,
    }
    if room is not None:
        body["room"] = dict(room.health()) | {"tables": list(reports)}
        body["ready"] = ready = ready and bool(body["room"]["ok"])
    return JSONResponse(body, status_code=200 if ready else 503)


@router.websocket("/ws/public")
async def ws_public(ws: WebSocket, service: ReaderDep, _: PublicDep) -> None:
    """Live public feed: a snapshot, then every change (a security alert as the floor
    notice, :func:`hub.views.public.public_frame`)."""

    def snapshot() -> Event:
        return public_snapshot(service.public_snapshot())

    await stream(ws, service.public, snapshot, label="public", project=public_frame)


__all__ = ["router"]
