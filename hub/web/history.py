"""The hand history: the kept hands searched, one hand stepped through street by street,
and any selection downloaded as PHH, PokerStars text or Open Hand History.

* ``GET /history`` — the page (``static/history.html``);
* ``GET /api/history/hands?table=&since=&until=&player=&game=&limit=&offset=`` — the
  hands the filters find (:class:`~feltwire.protocol.history.HandList`, oldest first);
* ``GET /api/history/hands/{id}`` — one hand street by street
  (:class:`~feltwire.protocol.history.HandView`);
* ``GET /api/history/export?format=phh|pokerstars|ohh&<the same filters>`` — the hands
  as one file (``Content-Disposition: attachment``);
* ``GET /api/history/stats?<the same filters>&sessions=0|1`` — each person's statistics
  over the hands found, or each session's (:class:`~feltwire.protocol.history.HistoryStats`;
  docs/hands.md "Statistics" says what each figure counts).

``since`` / ``until`` are a date (``2026-12-02``: its midnight, UTC) or a time
(``2026-12-02T21:30``, UTC unless it names its zone); ``until`` is exclusive. ``player``
is a name or a club id the hand was dealt to, ``game`` a variant code (``NT``, ``PO`` …).

Everyone may use them; what they see is their role's (``?perspective=``, default the
widest allowed): the dealer, the producer and the admin see every card the store holds
(``all``; each such read is written to the audit trail, feed ``history``) or may ask for
``shown``; the public role — anyone without a sign-in, as on the public view — sees only
what the table saw (``shown``: the board, stud up cards, the hands shown at the
showdown; never a mucked or folded hand, a burn or a discard), and asking for ``all`` is
refused (403). The statistics hold no card — they count the actions everyone at the
table saw — so every role reads them, the public too; only the people's club ids go to
the staff alone (null to the public, who search by name). A hub that keeps no hands
answers 404, a store that could not be opened or cannot be read 503, each with a catalog
text, never a 500.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from starlette.requests import HTTPConnection

from feltwire.protocol.history import HandList, HandView, HistoryPerspective, HistoryStats
from feltwire.text import Text
from hub.app.errors import HandStoreError
from hub.app.hand_history import HandHistory, HandQuery, hand_summary, hand_view, moment
from hub.rules.exports import SUFFIX, file_name
from hub.security.audit import AuditError
from hub.web.auth import STAFF, Principal
from hub.web.dependencies import PublicDep, audit, auth_of
from hub.web.pages import page
from hub.web.refusal import Refusal

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "router"]

router = APIRouter()

DEFAULT_LIMIT = 50
"""Hands a search lists when it does not say how many."""
MAX_LIMIT = 500
"""The most hands one search lists (page through the rest with ``offset``)."""
HISTORY_FEED = "history"
"""The audit trail's name for the history's reads with every card."""

Format = Literal["phh", "pokerstars", "ohh"]
MEDIA = {
    "phh": "application/toml; charset=utf-8",
    "pokerstars": "text/plain; charset=utf-8",
    "ohh": "application/json; charset=utf-8",
}


def history_of(conn: HTTPConnection) -> HandHistory:
    """The kept hands this hub reads: 404 when it keeps none (its config says so), 503
    when its store could not be opened at start."""
    history: HandHistory | None = getattr(conn.app.state, "history", None)
    if history is None:
        if getattr(conn.app.state, "history_unopened", False):
            raise Refusal(503, Text("refusal.http.hand_store_unopened"))
        raise Refusal(404, Text("refusal.http.no_hand_store"))
    return history


def _perspective(who: Principal, asked: HistoryPerspective | None) -> HistoryPerspective:
    if who.role in STAFF:
        return asked or "all"
    if asked == "all":
        raise Refusal(403, Text("refusal.http.history_all_cards"))
    return "shown"


def _moment(name: str, value: str | None) -> float | None:
    if value is None or value == "":
        return None
    try:
        return moment(value)
    except ValueError:
        said = Text("refusal.http.bad_moment", {"field": name, "value": value})
        raise Refusal(422, said) from None


def _unreadable(exc: HandStoreError) -> Refusal:
    return Refusal(503, Text("refusal.http.hand_store_failed", {"error": str(exc)}))


def _audit(conn: HTTPConnection, who: Principal, table: str, detail: str) -> None:
    """A read with every card, written to the audit trail (who, from where; no card)
    before the cards go out: a trail that cannot be written refuses the read (503), as
    the overlay's feed does not open unaudited."""
    try:
        audit(conn, table, who, outcome="open", feed=HISTORY_FEED, detail=detail)
    except (sqlite3.Error, OSError, AuditError) as exc:
        auth_of(conn).refusal_log.error(
            "audit trail: cannot be written (%s): open at %s", exc, conn.url.path
        )
        raise Refusal(503, Text("refusal.http.audit_unavailable", {"error": str(exc)})) from None


Table = Annotated[str | None, Query(max_length=64, description="only this table")]
Since = Annotated[str | None, Query(max_length=40, description="started at or after (UTC)")]
Until = Annotated[str | None, Query(max_length=40, description="started before (UTC)")]
Player = Annotated[str | None, Query(max_length=64, description="a name or club id dealt in")]
Game = Annotated[str | None, Query(max_length=16, description="a variant code (NT, PO …)")]
Seen = Annotated[HistoryPerspective | None, Query(description="shown or all (staff only)")]


async def hand_filters(
    table: Table = None,
    since: Since = None,
    until: Until = None,
    player: Player = None,
    game: Game = None,
) -> HandQuery:
    """The hands a request's filters choose (an empty filter: any)."""
    return HandQuery(
        table=table or None,
        since=_moment("since", since),
        until=_moment("until", until),
        player=player or None,
        game=game or None,
    )


Filters = Annotated[HandQuery, Depends(hand_filters)]
"""A route parameter: the hands the query's table, dates, player and game choose."""


@router.get("/history", response_class=HTMLResponse)
async def history_page(_: PublicDep) -> str:
    """The hand history page: search, step through a hand, download."""
    return page("history.html", TITLE="feltwire — hand history")


@router.get("/api/history/hands")
async def history_hands(
    request: Request,
    who: PublicDep,
    query: Filters,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
    offset: Annotated[int, Query(ge=0)] = 0,
    perspective: Seen = None,
) -> HandList:
    """The hands the filters find, ``limit`` from ``offset``, oldest first."""
    seen = _perspective(who, perspective)
    history = history_of(request)
    try:
        total, kept = await run_in_threadpool(history.find, query, limit, offset)
    except HandStoreError as exc:
        raise _unreadable(exc) from exc
    hands = [hand_summary(k) for k in kept]
    return HandList(perspective=seen, total=total, offset=offset, limit=limit, hands=hands)


@router.get("/api/history/hands/{hand_id}")
async def history_hand(
    request: Request, who: PublicDep, hand_id: int, perspective: Seen = None
) -> HandView:
    """One kept hand street by street: cards, actions, pot, awards and alerts."""
    seen = _perspective(who, perspective)
    history = history_of(request)
    try:
        kept = await run_in_threadpool(history.get, hand_id)
    except HandStoreError as exc:
        raise _unreadable(exc) from exc
    if kept is None:
        raise Refusal(404, Text("refusal.http.no_kept_hand", {"hand": str(hand_id)}))
    view = hand_view(kept, seen)
    if seen == "all":
        table = view.summary.table
        _audit(request, who, table, f"hand {hand_id} ({table} #{view.summary.number})")
    return view


@router.get("/api/history/export")
async def history_export(
    request: Request,
    who: PublicDep,
    format: Annotated[Format, Query(description="phh, pokerstars or ohh")],
    query: Filters,
    perspective: Seen = None,
) -> Response:
    """The hands the filters find as one file of ``format``: PHH (``.phhs``), PokerStars
    text (``.txt``) or OHH (``.ohh``), through the reader's perspective. The headers
    ``X-Feltwire-Hands`` and ``X-Feltwire-Failed`` count the hands written and those
    that could not be read."""
    seen = _perspective(who, perspective)
    history = history_of(request)
    try:
        file = await run_in_threadpool(history.export, format, query, seen)
    except HandStoreError as exc:
        raise _unreadable(exc) from exc
    if seen == "all":
        _audit(request, who, query.table or "", f"export {format}: {file.hands} hands")
    table = query.table
    name = "hands" + (f"-{file_name(table)}" if table else "") + SUFFIX[format]
    headers = {
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "no-store",
        "X-Feltwire-Hands": str(file.hands),
        "X-Feltwire-Failed": str(len(file.failed)),
    }
    return Response(file.text, media_type=MEDIA[format], headers=headers)


@router.get("/api/history/stats")
async def history_stats(
    request: Request,
    who: PublicDep,
    query: Filters,
    sessions: Annotated[bool, Query(description="a row per session (1) or per person (0)")] = False,
) -> HistoryStats:
    """Each person's statistics over the hands the filters find (``player``: that person
    only), or with ``sessions=1`` each of their sessions. No card: every role reads them;
    the club ids only the staff."""
    history = history_of(request)
    try:
        if sessions:
            rows = await run_in_threadpool(history.session_figures, query)
            found = HistoryStats(by_session=True, players=[], sessions=rows)
        else:
            people = await run_in_threadpool(history.player_figures, query)
            found = HistoryStats(by_session=False, players=people, sessions=[])
    except HandStoreError as exc:
        raise _unreadable(exc) from exc
    if who.role not in STAFF:
        found = found.model_copy(
            update={
                "players": [p.model_copy(update={"club_id": None}) for p in found.players],
                "sessions": [s.model_copy(update={"club_id": None}) for s in found.sessions],
            }
        )
    return found
