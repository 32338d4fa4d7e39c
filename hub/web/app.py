"""The FastAPI app: pages, their WebSockets and a small JSON API.

Built by :func:`create_app` from a running :class:`~hub.service.HubService`, so tests get
the real app over real HTTP and WebSocket connections.

Routes: ``/`` public table view, ``/overlay?token=…`` the producer's overlay,
``/ws/public`` and ``/ws/overlay?token=…`` their live feeds, ``/api/public`` the public
snapshot, ``/api/stats`` the ingest counters, ``/healthz``; ``POST /api/console/action``
enters a betting action at the dealer console (for now it needs the producer token, as
``?token=`` or the ``X-Feltwire-Token`` header, until the console has its own credentials).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Header, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from hub.feeds import Broadcaster, Event
from hub.rules.procedure import Act, ConsoleAction
from hub.service import HubService
from hub.table_service import public_event

STATIC = files("hub.web") / "static"


def _page(feed: str, title: str) -> str:
    html = (STATIC / "table.html").read_text(encoding="utf-8")
    return html.replace("{{FEED}}", feed).replace("{{TITLE}}", title)


class ConsoleActionBody(BaseModel):
    """A betting action entered at the console: ``to`` is the total of a bet or raise."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=1, le=10)
    act: Act
    to: int = Field(0, ge=0)


def create_app(service: HubService, *, producer_token: str) -> FastAPI:
    """The hub's web app for one table."""
    app = FastAPI(title="feltwire hub", version="0.1.0")
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    def token_ok(token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), producer_token.encode())

    @app.get("/", response_class=HTMLResponse)
    async def public_page() -> str:
        """The public table view: board cards, how many cards each seat holds."""
        return _page("public", f"feltwire — {service.table}")

    @app.get("/overlay", response_class=HTMLResponse)
    async def overlay_page(token: str | None = Query(None)) -> str:
        """The producer's overlay with every card (needs the producer token)."""
        if not token_ok(token):
            raise HTTPException(status_code=403, detail="the overlay needs the producer token")
        return _page("overlay", f"feltwire overlay — {service.table}")

    @app.get("/api/public")
    async def api_public() -> Event:
        """The public snapshot of the table (no hole cards)."""
        return service.public_snapshot()

    @app.get("/api/stats")
    async def api_stats() -> dict[str, Any]:
        """Ingest counters: messages received, accepted, refused by reason."""
        return {
            "table": service.table,
            "counters": service.counters,
            "changes": service.changes,
            "subscribers": {"public": len(service.public), "overlay": len(service.overlay)},
        }

    @app.post("/api/console/action")
    async def console_action(
        body: ConsoleActionBody,
        token: str | None = Query(None),
        x_feltwire_token: str | None = Header(None),
    ) -> dict[str, Any]:
        """Enter a betting action for a seat; the step's refusal, alerts and public events.

        Needs the producer token for now (query ``token`` or header ``X-Feltwire-Token``).
        """
        if not token_ok(token) and not token_ok(x_feltwire_token):
            raise HTTPException(status_code=403, detail="the console needs the producer token")
        rules = service.rules
        if rules is None:
            raise HTTPException(status_code=404, detail="this hub enforces no rules")
        step = rules.console(ConsoleAction(body.seat, body.act, 0.0, body.to))
        if step is None:
            raise HTTPException(status_code=409, detail="no hand is running")
        return {
            "hand": rules.hand_number,
            "accepted": step.refused is None,
            "refused": step.refused,
            "alerts": [a.as_dict() for a in step.alerts],
            "events": [public_event(e) for e in step.public_events],
            "in_hand": rules.in_hand,
        }

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        """Liveness for systemd and load balancers."""
        return {"status": "ok"}

    async def pump(ws: WebSocket, feed: Broadcaster, snapshot: Event) -> None:
        with feed.subscribe() as sub:
            await ws.send_json(snapshot)
            receiver = asyncio.create_task(ws.receive_text())
            try:
                while True:
                    getter = asyncio.create_task(sub.get())
                    done, _ = await asyncio.wait(
                        {getter, receiver}, return_when=asyncio.FIRST_COMPLETED
                    )
                    if receiver in done:
                        getter.cancel()
                        receiver.result()  # raises WebSocketDisconnect when the client left
                        receiver = asyncio.create_task(ws.receive_text())
                        continue
                    await ws.send_json(getter.result())
            finally:
                receiver.cancel()

    @app.websocket("/ws/public")
    async def ws_public(ws: WebSocket) -> None:
        """Live public feed: a snapshot, then every change."""
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await pump(ws, service.public, service.public_snapshot())

    @app.websocket("/ws/overlay")
    async def ws_overlay(ws: WebSocket, token: str | None = Query(None)) -> None:
        """The overlay feed with every card, delayed as configured (needs the token)."""
        if not token_ok(token):
            await ws.close(code=1008, reason="the overlay needs the producer token")
            return
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await pump(ws, service.overlay, service.overlay_snapshot())

    return app
