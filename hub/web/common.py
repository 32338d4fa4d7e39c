"""What the hub's web routes share: the tables they serve and the WebSocket pump.

Every page, feed and API names its table with ``?table=<id>``; without it the hub's
first table is meant (a one-table hub needs no parameter).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Annotated

from fastapi import Depends, HTTPException, Query, WebSocket, WebSocketException, status
from starlette.requests import HTTPConnection

from hub.audit import Outcome
from hub.feeds import Broadcaster, Event
from hub.service import HubService
from hub.web.auth import Principal, WebAuth


def tables_of(conn: HTTPConnection) -> Mapping[str, HubService]:
    """The tables this app serves, by id (in the order the config lists them)."""
    tables: Mapping[str, HubService] = conn.app.state.tables
    return tables


def get_table(conn: HTTPConnection, table: str | None = Query(None)) -> HubService:
    """The table a request names (``?table=``), or the first table when it names none."""
    tables = tables_of(conn)
    if table is None:
        return next(iter(tables.values()))
    service = tables.get(table)
    if service is None:
        reason = f"no table {table!r} here; tables: {', '.join(tables)}"
        if conn.scope["type"] == "websocket":
            raise WebSocketException(code=status.WS_1008_POLICY_VIOLATION, reason=reason)
        raise HTTPException(status_code=404, detail=reason)
    return service


async def pump(
    ws: WebSocket,
    feed: Broadcaster,
    snapshot: Event,
    *,
    after_burst: Callable[[], Event] | None = None,
) -> None:
    """Send ``snapshot``, then every event of ``feed`` until the client leaves (raises
    WebSocketDisconnect then); anything the client sends is read and ignored.

    Events that queued up together go out as one burst, followed by ``after_burst()``
    when given (the console sends a fresh state after each change). A client that fell
    so far behind that the feed dropped it is closed with 1013 (try again later): its
    page reconnects and starts again from a snapshot."""
    with feed.subscribe() as sub:
        await ws.send_json(snapshot)
        receiver = asyncio.create_task(ws.receive_text())
        getter: asyncio.Task[Event] | None = None
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
                frames = [getter.result()]
                while not sub.queue.empty():
                    frames.append(sub.queue.get_nowait())
                for frame in frames:
                    await ws.send_json(frame)
                if after_burst is not None:
                    await ws.send_json(after_burst())
                if sub.overflowed:
                    await ws.close(code=status.WS_1013_TRY_AGAIN_LATER)
                    return
        finally:
            receiver.cancel()
            if getter is not None:
                getter.cancel()


def audit(
    conn: HTTPConnection,
    service: HubService,
    who: Principal,
    *,
    outcome: Outcome,
    feed: str,
    detail: str,
) -> None:
    """Write what ``who`` did at ``service``'s table to the audit trail (who, from where,
    which route; never a card)."""
    auth: WebAuth = conn.app.state.auth
    auth.audit.record(
        outcome=outcome,
        feed=feed,
        route=conn.url.path,
        table=service.table,
        name=who.name,
        role=who.role.value,
        via=who.via,
        address=conn.client.host if conn.client is not None else "",
        user_agent=conn.headers.get("user-agent", ""),
        detail=detail,
    )


TableDep = Annotated[HubService, Depends(get_table)]
"""A route parameter: the table the request names."""
