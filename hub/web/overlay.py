"""The producer's broadcast overlay: every card, held back by the configured delay.

``/overlay`` the page (an OBS browser source: transparent, designed at 1920x1080 and
scaled to the window), ``/ws/overlay`` its feed; both need the producer role (a token in
the URL: ``?token=…``). The feed sends a snapshot (with the overlay's picture of the table,
``state``), then every released frame; after every change the picture of the table as it
was is one of them (a ``state`` frame, projected by
:func:`hub.views.overlay_scene.overlay_picture` and held by the delay like the rest). The
page takes ``?offset_ms=N`` (board-sync offset: every frame is drawn N ms after it came),
``?lang=`` and ``?setup=1`` (the producer's settings; the S key toggles them).
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from fastapi.responses import HTMLResponse

from hub.web.dependencies import ProducerDep, ReaderDep, stream
from hub.web.pages import page

router = APIRouter()


@router.get("/overlay", response_class=HTMLResponse)
async def overlay_page(service: ReaderDep, _: ProducerDep) -> str:
    """The producer's overlay with every card (needs the producer role)."""
    return page("overlay.html", TITLE=f"feltwire overlay — {service.table}")


@router.websocket("/ws/overlay")
async def ws_overlay(ws: WebSocket, service: ReaderDep, _: ProducerDep) -> None:
    """The overlay feed with every card, delayed as configured (producer role)."""
    await stream(ws, service.overlay, service.overlay_snapshot, label="overlay")


__all__ = ["router"]
