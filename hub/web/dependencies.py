"""What the hub's web routers share: the table a request names, who is asking, the
audit trail and the WebSocket pump — below every router, so no router imports the app.

Every page, feed and API names its table with ``?table=<id>``; without it the hub's
first table is meant (a one-table hub needs no parameter). A route takes the table as
:data:`ReaderDep` (it only reads) or :data:`TableDep` (the staff's inputs too), and its
access rule as one of :data:`PublicDep`, :data:`DealerDep`, :data:`ProducerDep`,
:data:`AdminDep` (:func:`hub.web.auth.allow`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Annotated, NoReturn

from fastapi import (
    Depends,
    Query,
    WebSocket,
    WebSocketDisconnect,
    WebSocketException,
    status,
)
from starlette.requests import HTTPConnection
from starlette.types import Message

from feltwire.text import Text
from hub.app.feeds import END
from hub.app.throttle import ThrottledLog
from hub.messages import render
from hub.security.audit import Outcome
from hub.views.frames import Event, frame_text
from hub.web.auth import EVERYONE, Principal, Role, WebAuth, allow
from hub.web.refusal import Refusal
from hub.web.tables import Feed, RoomDirectory, TableDesk, TableReader

PublicDep = Annotated[Principal, Depends(allow(*EVERYONE))]
"""A route parameter: the access rule letting everyone in (the public role)."""
DealerDep = Annotated[Principal, Depends(allow(Role.DEALER))]
"""A route parameter: the access rule of the dealer's routes (admin passes too)."""
ProducerDep = Annotated[Principal, Depends(allow(Role.PRODUCER, audit="overlay"))]
"""A route parameter: the producer's rule; the overlay carries every card, so each open
and refusal is audited."""
AdminDep = Annotated[Principal, Depends(allow(Role.ADMIN))]
"""A route parameter: the access rule of the admin's routes."""

FEED_MESSAGE_IGNORED = "ws_client_message_ignored"
"""The ``web_refusals`` counter of messages a client sent on a feed's WebSocket (a feed
takes nothing from its clients: each is read, counted, logged throttled and ignored)."""

log = logging.getLogger(__name__)
_said = ThrottledLog(log)


def auth_of(conn: HTTPConnection) -> WebAuth:
    """The hub's credentials and audit trail (:class:`~hub.web.auth.WebAuth`)."""
    auth: WebAuth = conn.app.state.auth
    return auth


def tables_of(conn: HTTPConnection) -> Mapping[str, TableDesk]:
    """The tables this app serves, by id (in the order the config lists them)."""
    tables: Mapping[str, TableDesk] = conn.app.state.tables
    return tables


async def get_table(conn: HTTPConnection, table: str | None = Query(None)) -> TableDesk:
    """The table a request names (``?table=``), or the first table when it names none.
    (``async``: FastAPI runs a plain ``def`` dependency in its thread pool — two thread
    hops and a turn at the interpreter lock for every console action and every page.)

    In a card room of several hubs (``app.state.room``) a table another hub serves is
    sent there: a page (GET) is redirected (307) to the same path on that hub, any other
    request is answered 421 with the hub's address in ``Location``, a WebSocket closed
    (1013, try again later: the page finds the table's hub). A table this hub holds but
    cannot confirm now (its lease not renewed in time), or that no hub serves for the
    moment (it is moving), is 503 (a WebSocket: 1013)."""
    tables = tables_of(conn)
    room: RoomDirectory | None = conn.app.state.room
    if table is None:
        if tables:
            return next(iter(tables.values()))
        if room is None:
            raise Refusal(404, Text("refusal.http.no_table", {"table": "", "tables": ""}))
        table = ""
    service = tables.get(table)
    if service is not None:
        if not service.speaks():
            _refuse(conn, 503, Text("refusal.http.table_unconfirmed", {"table": table}))
        return service
    place = room.place(table) if room is not None else None
    if place is None:
        reason = Text("refusal.http.no_table", {"table": table, "tables": ", ".join(tables)})
        _refuse(conn, 404, reason)
    if place.hub is None or place.url is None or place.here:
        _refuse(conn, 503, Text("refusal.http.table_unserved", {"table": table}))
    target = (
        place.url.rstrip("/") + conn.url.path + (f"?{conn.url.query}" if conn.url.query else "")
    )
    text = Text("refusal.http.table_elsewhere", {"table": table, "hub": place.hub, "url": target})
    get = conn.scope["type"] == "http" and conn.scope.get("method") in ("GET", "HEAD")
    _refuse(conn, 307 if get else 421, text, {"Location": target})


def _refuse(
    conn: HTTPConnection, status_code: int, reason: Text, headers: dict[str, str] | None = None
) -> NoReturn:
    """Refuse the request: a Refusal, or on a WebSocket a close — 1008 (policy) for a
    table that is not there, 1013 (try again later) for one served elsewhere or moving."""
    if conn.scope["type"] == "websocket":
        code = status.WS_1008_POLICY_VIOLATION if status_code == 404 else 1013
        raise WebSocketException(code=code, reason=render(reason, "en")[:120])
    raise Refusal(status_code, reason, headers)


async def stream(
    ws: WebSocket,
    feed: Feed,
    snapshot: Callable[[], Event],
    *,
    label: str,
    after_burst: Callable[[], Event] | None = None,
    project: Callable[[Event], Event] | None = None,
) -> None:
    """Accept the WebSocket ``ws`` and :func:`pump` ``feed`` into it, starting from
    ``snapshot()`` taken once the socket is open (no change falls between the snapshot
    and the subscription), until the client leaves — what every feed route does once
    its access rule let the client in. ``label`` names the page's feed (``public``,
    ``console``, ``overlay``): ``/metrics`` counts the clients of each. ``project``, when
    given, is applied to each frame of the feed before it is sent (the public view's)."""
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect):
        await pump(ws, feed, snapshot(), label=label, after_burst=after_burst, project=project)


async def pump(
    ws: WebSocket,
    feed: Feed,
    snapshot: Event,
    *,
    label: str = "",
    after_burst: Callable[[], Event] | None = None,
    project: Callable[[Event], Event] | None = None,
) -> None:
    """Send ``snapshot``, then every event of ``feed`` (each through ``project``, when
    given) until the client leaves (raises WebSocketDisconnect then); anything the
    client sends, text or binary, is read, counted (:data:`FEED_MESSAGE_IGNORED`) and ignored.

    Events that queued up together go out as one burst, followed by ``after_burst()``
    when given (the console sends a fresh state after each change). A client that fell
    so far behind that the feed dropped it is closed with 1013 (try again later): its
    page reconnects and starts again from a snapshot.

    The client's side is read by a task of its own for as long as the socket lives; it
    ends the subscription when the client leaves, so the sending side only ever waits
    on the feed's queue (no task, no ``asyncio.wait`` per frame: at 50 tables and three
    feeds a table that was a good part of the event loop's turns)."""
    with feed.subscribe(label) as sub:
        await ws.send_text(frame_text(snapshot))
        left: list[Exception] = []

        async def receive() -> None:
            try:
                while True:
                    _ignore(ws, await ws.receive())  # WebSocketDisconnect: the client left
            except Exception as exc:  # the client left, or its socket failed
                left.append(exc)
                sub.end()  # wakes the sending side, which raises ``exc``

        receiver = asyncio.create_task(receive())
        try:
            while True:
                frames = [await sub.get()]
                while not sub.queue.empty():
                    frames.append(sub.queue.get_nowait())
                silent = frames[-1] is END or not feed.live()  # the hub fell silent
                if not silent:
                    for frame in frames:
                        await ws.send_text(frame_text(frame if project is None else project(frame)))
                    if after_burst is not None:
                        await ws.send_text(frame_text(after_burst()))
                if left:  # the client left (before or while this burst went out)
                    raise left[0]
                if silent or sub.overflowed:
                    await ws.close(code=status.WS_1013_TRY_AGAIN_LATER)
                    return
        finally:
            receiver.cancel()


def _ignore(ws: WebSocket, message: Message) -> None:
    """A message a feed's client sent: raise WebSocketDisconnect when it says the client
    left; otherwise count it, log it (throttled) and ignore it. (Starlette's
    ``receive_text`` raised KeyError on a binary frame: the socket died with a traceback.)"""
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    counts = getattr(ws.app.state, "web_refusals", None)
    if isinstance(counts, Counter):
        counts[FEED_MESSAGE_IGNORED] += 1
    text = message.get("text")
    size = len(text) if text is not None else len(message.get("bytes") or b"")
    kind = "text" if text is not None else "binary"
    _said.warning(
        "a client of %s sent a %s message (%d long): a feed takes nothing from its "
        "clients; ignored",
        ws.url.path,
        kind,
        size,
        key="ws-ignored",
    )


def audit(
    conn: HTTPConnection,
    table: TableReader | str,
    who: Principal,
    *,
    outcome: Outcome,
    feed: str,
    detail: str,
) -> None:
    """Write what ``who`` did at ``table`` (the table, or its id) to the audit trail
    (who, from where, which route; never a card)."""
    auth_of(conn).audit.record(
        outcome=outcome,
        feed=feed,
        route=conn.url.path,
        table=table if isinstance(table, str) else table.table,
        name=who.name,
        role=who.role.value,
        via=who.via,
        address=conn.client.host if conn.client is not None else "",
        user_agent=conn.headers.get("user-agent", ""),
        detail=detail,
    )


TableDep = Annotated[TableDesk, Depends(get_table)]
"""A route parameter: the table the request names, with the staff's inputs."""
ReaderDep = Annotated[TableReader, Depends(get_table)]
"""A route parameter: the table the request names, to read."""


__all__ = [
    "FEED_MESSAGE_IGNORED",
    "AdminDep",
    "DealerDep",
    "ProducerDep",
    "PublicDep",
    "ReaderDep",
    "TableDep",
    "audit",
    "auth_of",
    "get_table",
    "pump",
    "stream",
    "tables_of",
]
