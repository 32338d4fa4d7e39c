"""The producer's broadcast overlay: every card, held back by the configured delay.

``/overlay`` the page (an OBS browser source: transparent, designed at 1920x1080 and
scaled to the window), ``/ws/overlay`` its feed; both need the producer role (a token in
the URL: ``?token=…``, or a producer's session). The feed sends a snapshot (with the
overlay's picture of the table, ``state``, and the delay's state), then every released
frame; after every change the picture of the table as it was is one of them (a ``state``
frame, projected by :func:`hub.views.overlay_scene.overlay_picture` and held by the delay
like the rest); the snapshot also carries the table's branding and the producer's switches
(:mod:`hub.web.producer`, whose changes come as ``settings`` frames, not delayed) and,
with the ``plate_stats`` switch on, the plates' statistics (:mod:`hub.app.plate_stats`:
``plate_stats`` frames, counted over the hands the delayed picture has finished). The page
takes ``?offset_ms=N`` (board-sync offset: every frame is drawn N ms after it came),
``?lang=``, ``?setup=1`` (the producer's settings; the S key toggles them) and
``?preview=1`` (the producer's preview: the delayed-feed status, never on air;
``docs/overlay.md``).

``/api/overlay/delay`` is the delay's state (frames held, seconds until the next comes
out; no card, so not audited): the preview polls it while it waits for the first hand.

A browser asking for ``/overlay`` without a credential is sent to sign in (``/login``,
back here afterwards); one whose link carries a token that does not work (forged,
expired, mistyped, or not a producer's) gets a page saying so, with a way to sign in
instead — not the access rule's JSON, and no sign-in that would come back to the same
refused link.
"""

from __future__ import annotations

from html import escape
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, WebSocket
from fastapi.responses import HTMLResponse, Response
from starlette.requests import HTTPConnection, Request

from feltwire.protocol import OverlayDelayStatus
from hub.web.auth import ACCESS_HEADER, ANONYMOUS, Access, Principal, Role, allow
from hub.web.dependencies import ProducerDep, ReaderDep, stream
from hub.web.errors import AccessRefused
from hub.web.pages import page
from hub.web.producer import brand_of, overlay_settings, plates_of
from hub.web.session import refused

router = APIRouter()

REFUSED_KEY = "overlay_refused"
"""Where :class:`OverlayPageAccess` leaves a refusal for the page route to answer."""


def _wants_page(conn: HTTPConnection) -> bool:
    return "text/html" in conn.headers.get("accept", "")


def _sent_token(conn: HTTPConnection) -> bool:
    headers = conn.headers
    return bool(
        conn.query_params.get("token")
        or headers.get("x-feltwire-token")
        or headers.get("authorization")
    )


class OverlayPageAccess(Access):
    """The overlay page's rule: the producer's (audited like the feed), but a browser
    whose token was refused is answered by the page route with a page (the refusal is
    left in the request's state and the caller is the public)."""

    async def __call__(self, conn: HTTPConnection) -> Principal:
        try:
            return await super().__call__(conn)
        except AccessRefused as exc:
            if conn.scope["type"] != "http" or not _wants_page(conn) or not _sent_token(conn):
                raise
            setattr(conn.state, REFUSED_KEY, exc)
            return Principal(ANONYMOUS, Role.PUBLIC, "anonymous", note=str(exc.detail))


OVERLAY_PAGE_RULE = OverlayPageAccess([Role.PRODUCER], audit="overlay")
OverlayPageDep = Annotated[Principal, Depends(OVERLAY_PAGE_RULE)]
PreviewDep = Annotated[Principal, Depends(allow(Role.PRODUCER))]
"""The producer's rule without the audit: the delay's state carries no card."""


def _sign_in_link(request: Request) -> str:
    """``/login``, coming back to this overlay without the token that was refused."""
    kept = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
    back = request.url.path + (f"?{urlencode(kept)}" if kept else "")
    return "/login?" + urlencode({"next": back})


def refusal_page(request: Request, exc: AccessRefused) -> HTMLResponse:
    """The page a refused overlay link gets: why (a bad token, or a token of another
    role), in the reader's language, and a sign-in link; the refusal's status and headers."""
    kind = "role" if exc.status_code == 403 else "token"
    html = page(
        "overlay_refused.html",
        TITLE="feltwire overlay",
        KIND=kind,
        SIGN_IN=escape(_sign_in_link(request)),
        DETAIL=escape(str(exc.detail)),
    )
    return HTMLResponse(html, exc.status_code, headers=exc.headers)


@router.get("/overlay", response_class=HTMLResponse)
async def overlay_page(request: Request, service: ReaderDep, who: OverlayPageDep) -> Response:
    """The producer's overlay with every card (needs the producer role)."""
    problem = getattr(request.state, REFUSED_KEY, None)
    if isinstance(problem, AccessRefused):
        return refusal_page(request, problem)
    if not OVERLAY_PAGE_RULE.allows(who.role):  # never the page to anyone else
        refusal = AccessRefused(401, "sign in as producer", headers={ACCESS_HEADER: "refused"})
        return await refused(request, refusal)
    table = escape(service.table)
    name = escape(brand_of(request, service.table).name or service.table)
    html = page("overlay.html", TITLE=f"feltwire overlay — {table}", TABLE=table, NAME=name)
    return HTMLResponse(html)


@router.get("/api/overlay/delay", response_model=OverlayDelayStatus)
async def overlay_delay(service: ReaderDep, _: PreviewDep) -> dict[str, Any]:
    """The overlay delay's state: how long, how many frames held, the next one when."""
    snap = service.overlay_snapshot()
    return OverlayDelayStatus(
        table=service.table,
        delay_s=snap["delay_s"],
        held=snap.get("held", 0),
        next_release_s=snap.get("next_release_s"),
    ).model_dump()


@router.websocket("/ws/overlay")
async def ws_overlay(ws: WebSocket, service: ReaderDep, _: ProducerDep) -> None:
    """The overlay feed with every card, delayed as configured (producer role)."""
    table = service.table

    def snapshot() -> dict[str, Any]:
        snap = service.overlay_snapshot()
        plates = plates_of(ws, table)
        if plates is not None:
            snap["plate_stats"] = plates.current()
        return snap | {"settings": overlay_settings(ws, table).model_dump()}

    await stream(ws, service.overlay, snapshot, label="overlay")


__all__ = ["OVERLAY_PAGE_RULE", "OverlayPageAccess", "router"]
