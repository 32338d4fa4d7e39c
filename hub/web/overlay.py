"""The producer's broadcast overlay: every card, held back by the configured delay.

``/overlay`` the page (an OBS browser source: transparent, designed at 1920x1080 and
scaled to the window), ``/ws/overlay`` its feed; both need the producer role (a token in
the URL: ``?token=…``). The feed sends a snapshot (with the overlay's picture of the table,
``state``), then every released frame, each followed by a ``state`` frame with the new
picture (:mod:`hub.overlay_state`). The page takes ``?offset_ms=N`` (board-sync offset:
every frame is drawn N ms after it came), ``?lang=`` and ``?setup=1`` (the producer's
settings; the S key toggles them).
"""

from __future__ import annotations

import contextlib
from typing import Annotated

from fastapi import Depends, FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse

from hub.web.auth import Principal, Role, allow
from hub.web.common import TableDep, pump

PRODUCER = allow(Role.PRODUCER, audit="overlay")


def register(app: FastAPI) -> None:
    """Add the overlay's routes to ``app``."""
    from hub.web.app import page

    @app.get("/overlay", response_class=HTMLResponse)
    async def overlay_page(service: TableDep, _: Annotated[Principal, Depends(PRODUCER)]) -> str:
        """The producer's overlay with every card (needs the producer role)."""
        return page("overlay.html", TITLE=f"feltwire overlay — {service.table}")

    @app.websocket("/ws/overlay")
    async def ws_overlay(
        ws: WebSocket, service: TableDep, _: Annotated[Principal, Depends(PRODUCER)]
    ) -> None:
        """The overlay feed with every card, delayed as configured (producer role)."""
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await pump(ws, service.overlay, service.overlay_snapshot())
