"""Hands read back from the hands store: found by table, time, player and game, and played
again on the engine from their stored rows, for the exports (``feltwire history export``)
and the history page.

A stored hand holds its own stakes and options as the engine played them
(``hands.rules``) and its cards and actions in the order they happened (``at``), so
:func:`replay` rebuilds the very :class:`~hub.rules.hand.Hand` the table played — the
exporters (:mod:`hub.rules.phh`, :mod:`hub.rules.pokerstars`, :mod:`hub.rules.ohh`) write
from it. Voided hands (a misdeal) are never found: nothing of them was played out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, func, select

from feltwire.cards import card_index
from hub.adapters.hands import schema
from hub.adapters.hands.store import HandStore
from hub.app.errors import HandStoreError
from hub.app.hand_history import HandQuery, KeptHand
from hub.rules.dealing import UNKNOWN
from hub.rules.games import BringInTies, Options, Stakes, game
from hub.rules.hand import Hand, Phase
from hub.rules.pokerstars import HandContext

__all__ = [
    "HandQuery",
    "StoredHand",
    "count_hands",
    "find_hands",
    "hand_conditions",
    "hand_row",
    "hand_rows",
    "kept_hands",
    "replay",
    "the_player",
]


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A stored hand played again: the engine's ``hand``, what the files say around it
    (``context``: number, table, time, names and table seats in hand order, rake), and
    its row (``row``: the ``hands`` columns)."""

    row: dict[str, Any]
    hand: Hand
    context: HandContext


def hand_conditions(q: HandQuery) -> list[ColumnElement[bool]]:
    """What ``q`` asks of a ``hands`` row — not voided, its table, game, start and end —
    leaving the player out (the statistics keep every seat of such a hand)."""
    h = schema.hands
    found: list[ColumnElement[bool]] = [h.c.voided.is_(False)]
    if q.table is not None:
        found.append(h.c.table_id == q.table)
    if q.game is not None:
        found.append(h.c.game == q.game)
    if q.since is not None:
        found.append(h.c.started_at >= q.since)
    if q.until is not None:
        found.append(h.c.started_at < q.until)
    if q.ended_after is not None:
        found.append(h.c.ended_t > q.ended_after)
    if q.ended_by is not None:
        found.append(h.c.ended_t <= q.ended_by)
    return found


def the_player(player: str) -> ColumnElement[bool]:
    """A ``players`` row that is ``player``: that name or that club id."""
    p = schema.players
    return (p.c.name == player) | (p.c.club_id == player)


def _query(q: HandQuery) -> Select[Any]:
    h, s, p = schema.hands, schema.hand_seats, schema.players
    query = select(h).where(*hand_conditions(q))
    if q.player is not None:
        dealt_in = select(s.c.hand_id).join(p, p.c.id == s.c.player_id).where(the_player(q.player))
        query = query.where(h.c.id.in_(dealt_in))
    return query.order_by(h.c.started_at, h.c.table_id, h.c.number)


def hand_rows(
    store: HandStore,
    query: HandQuery | None = None,
    *,
    limit: int | None = None,
    offset: int = 0,
) -> list[dict[str, Any]]:
    """The ``hands`` rows ``query`` finds, oldest first (``limit`` of them from
    ``offset``, when given)."""
    found = _query(query or HandQuery())
    if limit is not None:
        found = found.limit(limit).offset(offset)
    with store.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(found)]


def hand_row(store: HandStore, hand_id: int) -> dict[str, Any] | None:
    """The ``hands`` row of the stored hand ``hand_id`` (None: none, or voided)."""
    h = schema.hands
    with store.connect() as conn:
        found = conn.execute(select(h).where(h.c.id == hand_id, h.c.voided.is_(False))).first()
    return None if found is None else dict(found._mapping)


def count_hands(store: HandStore, query: HandQuery | None = None) -> int:
    """How many hands ``query`` finds."""
    found = _query(query or HandQuery()).order_by(None).subquery()
    with store.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(found)).scalar_one())


def kept_hands(
    store: HandStore, rows: list[dict[str, Any]], *, whole: bool = False
) -> list[KeptHand]:
    """The hands of ``rows`` (``hands`` rows) with their seats and awards, and, when
    ``whole``, their actions, cards, pots and alerts too — a query a table, not a hand."""
    tables = [schema.hand_seats, schema.awards]
    if whole:
        tables += [schema.actions, schema.cards, schema.pots, schema.alerts]
    ids = [int(r["id"]) for r in rows]
    children: dict[str, dict[int, list[dict[str, Any]]]] = {}
    with store.connect() as conn:
        for table in tables:
            by_hand: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                for r in conn.execute(select(table).where(table.c.hand_id.in_(ids))):
                    by_hand[int(r.hand_id)].append(dict(r._mapping))
            children[table.name] = by_hand

    def of(table: str, row: dict[str, Any]) -> list[dict[str, Any]]:
        return children.get(table, {}).get(int(row["id"]), [])

    return [
        KeptHand(
            row,
            seats=of("hand_seats", row),
            awards=of("awards", row),
            actions=of("actions", row),
            cards=of("cards", row),
            pots=of("pots", row),
            alerts=of("alerts", row),
        )
        for row in rows
    ]


def find_hands(store: HandStore, query: HandQuery | None = None) -> Iterator[StoredHand]:
    """The hands ``query`` finds, oldest first, each played again (:func:`replay`)."""
    for row in hand_rows(store, query):
        yield replay(store, row)


def _rows(store: HandStore, table: Any, hand_id: int) -> list[dict[str, Any]]:
    with store.connect() as conn:
        found = conn.execute(select(table).where(table.c.hand_id == hand_id))
        return [dict(r._mapping) for r in found]


def replay(store: HandStore, row: dict[str, Any]) -> StoredHand:
    """The stored hand ``row`` (a ``hands`` row) played again on the engine from its
    rows alone. :class:`~hub.app.errors.HandStoreError` if they do not make a complete
    hand, :class:`~hub.rules.errors.RulesError` if they break a rule (a store written by
    hand, or damaged)."""
    seats = sorted(_rows(store, schema.hand_seats, row["id"]), key=lambda s: s["position"])
    place = {s["seat"]: s["position"] for s in seats}
    stakes: dict[str, Any] = {
        k: tuple(v) if isinstance(v, list) else v for k, v in row["rules"]["stakes"].items()
    }
    options = dict(row["rules"]["options"])
    options["bring_in_ties"] = BringInTies(options["bring_in_ties"])
    options["showdown_order"] = False  # shows and mucks replay in the order they happened
    hand = Hand(
        game(row["game"]),
        Stakes(**stakes),
        [s["starting_stack"] for s in seats],
        Options(**options),
    )
    cards = _rows(store, schema.cards, row["id"])
    steps = sorted(
        [("card", c) for c in cards]
        + [("act", a) for a in _rows(store, schema.actions, row["id"])],
        key=lambda x: int(x[1]["at"]),
    )
    for what, r in steps:
        seat = place.get(r["seat"]) if r["seat"] is not None else None
        if what == "card":
            card = card_index(r["card"]) if r["card"] is not None else UNKNOWN
            if r["kind"] == "hole":
                assert seat is not None
                hand.deal_hole(seat, card, r["up"])
            elif r["kind"] == "board":
                hand.deal_board(card)
            elif r["kind"] == "burn":
                hand.burn(card)
            continue  # a discard's cards go with its action
        _act(hand, r, seat, cards)
    if hand.phase is not Phase.COMPLETE:
        raise HandStoreError(
            f"hands store: hand {row['table_id']} #{row['number']} does not replay to its end"
        )
    started = row["started_at"] if row["started_at"] is not None else row["started_t"]
    context = HandContext(
        hand_id=int(row["number"]),
        table=str(row["table_id"]),
        started=datetime.fromtimestamp(float(started), UTC),
        players=[str(s["name"]) for s in seats],
        table_seats=[int(s["seat"]) for s in seats],
        max_seats=max(10, max(int(s["seat"]) for s in seats)),
        rake={i: int(s["rake"]) for i, s in enumerate(seats) if s["rake"]},
    )
    return StoredHand(row, hand, context)


def _act(hand: Hand, r: dict[str, Any], seat: int | None, cards: list[dict[str, Any]]) -> None:
    kind = r["kind"]
    if kind in ("ante", "blind", "dead blind"):
        return  # posted as the hand is set up
    assert seat is not None
    if kind == "fold":
        hand.fold(seat)
    elif kind in ("check", "call"):
        hand.check_or_call(seat)
    elif kind == "bring-in":
        hand.bring_in(seat)
    elif kind in ("bet", "raise", "complete"):
        hand.bet_or_raise_to(int(r["to_amount"]), seat)
    elif kind == "discard":
        thrown = [
            c for c in cards if c["kind"] == "discard" and r["at"] < c["at"] <= r["at"] + r["cards"]
        ]
        hand.discard(seat, [card_index(c["card"]) for c in thrown])
    elif kind == "show":
        mine = [c for c in cards if c["seat"] == r["seat"] and c["kind"] == "hole"]
        shown = [card_index(c["card"]) for c in mine if c["visibility"] in ("shown", "public")]
        hand.show(seat, shown if len(shown) < len(hand.hole[seat]) else None)
    elif kind == "muck":
        hand.muck(seat)
