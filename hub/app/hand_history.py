"""The kept hands as the history page reads them: which hands (:class:`HandQuery`), the
port the web side reads them through (:class:`HandHistory`; the hands store's adapter,
:class:`hub.adapters.hands.history.StoreHistory`, is the real one), and the hands as
the page's payloads (:func:`hand_summary`, :func:`hand_view`) through a perspective.

A perspective is whose eyes: ``all`` — every card the store holds (the staff's), or
``shown`` — what the table saw: the board, stud up cards and the cards shown at the
showdown (``visibility`` ``public`` or ``shown``), never a mucked hand, a folded hand, a
burn or a discard. A card the reader may not see keeps its place (the page draws its
back) without its code; a security alert reaches ``shown`` as the floor notice the
public view showed.

>>> moment("2026-12-02") == moment("2026-12-02T00:00+00:00")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from feltwire.cards import card_index
from feltwire.protocol.history import (
    HandSummary,
    HandView,
    HistoryAction,
    HistoryAlert,
    HistoryAward,
    HistoryCard,
    HistoryPerspective,
    HistoryPlayer,
    HistoryPot,
    HistoryStreet,
    PlayerFigures,
    SessionFigures,
)
from feltwire.protocol.texts import TextFrame
from feltwire.text import Text
from hub.messages.vocabulary import street
from hub.rules.games import game
from hub.views.public import FLOOR_CALLED, hand_name, is_security

__all__ = [
    "PERSPECTIVES",
    "ExportFile",
    "HandHistory",
    "HandQuery",
    "KeptHand",
    "hand_summary",
    "hand_view",
    "moment",
    "visible",
]

PERSPECTIVES: tuple[HistoryPerspective, ...] = ("shown", "all")
"""The perspectives the history page and its API know, narrowest first."""
SEEN_BY_ALL = frozenset({"public", "shown"})
"""The visibilities of the cards the ``shown`` perspective sees."""


def moment(text: str) -> float:
    """A date (``2026-12-02``: its midnight, UTC) or a time (``2026-12-02T21:30``, UTC
    unless it names its zone) as seconds since the epoch; ValueError for anything else."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a date or time (2026-12-02, 2026-12-02T21:30)") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


@dataclass(frozen=True, slots=True)
class HandQuery:
    """Which hands: of a ``table``, started at or after ``since`` and before ``until``
    (seconds since the epoch), with a ``player`` (a name or a club id) dealt in, of a
    ``game`` (variant code), ended after ``ended_after`` and at or before ``ended_by``
    (the hub's time, the hands' ``ended_t``: what the overlay's delay runs on); None: any."""

    table: str | None = None
    since: float | None = None
    until: float | None = None
    player: str | None = None
    game: str | None = None
    ended_after: float | None = None
    ended_by: float | None = None


@dataclass(frozen=True, slots=True)
class KeptHand:
    """One stored hand's rows, as the store holds them (the columns of
    :mod:`hub.adapters.hands.schema`): the ``hands`` row and its children."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    awards: list[dict[str, Any]]
    actions: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)
    pots: list[dict[str, Any]] = field(default_factory=list)
    alerts: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ExportFile:
    """A download: the hands' texts as one file (``text``), how many hands it holds and
    the hands that could not be read (``failed``: what was wrong with each)."""

    text: str
    hands: int
    failed: tuple[str, ...] = ()


class HandHistory(Protocol):
    """Where the history page reads the kept hands. Every method may raise
    :class:`~hub.app.errors.HandStoreError` (the store cannot be read)."""

    def find(self, query: HandQuery, limit: int, offset: int) -> tuple[int, list[KeptHand]]:
        """How many hands ``query`` finds, and ``limit`` of them from ``offset`` (oldest
        first), each with its seats and awards."""

    def get(self, hand_id: int) -> KeptHand | None:
        """The hand ``hand_id`` with all its rows (None: no such hand, or voided)."""

    def export(self, fmt: str, query: HandQuery, perspective: HistoryPerspective) -> ExportFile:
        """The hands ``query`` finds as one file of format ``fmt`` (``phh``,
        ``pokerstars``, ``ohh``) through ``perspective``."""

    def player_figures(self, query: HandQuery) -> list[PlayerFigures]:
        """Each person's statistics over the hands ``query`` finds, by name (``player``
        keeps that person's row only; docs/hands.md "Statistics")."""

    def session_figures(self, query: HandQuery) -> list[SessionFigures]:
        """Each person's sessions in the hands ``query`` finds, by name, then start."""


def visible(card: dict[str, Any], perspective: HistoryPerspective) -> bool:
    """Whether ``perspective`` sees the stored card ``card`` (a ``cards`` row)."""
    return perspective == "all" or card["visibility"] in SEEN_BY_ALL


def _seat(value: Any) -> int | None:
    return int(value) if value is not None and 1 <= int(value) <= 10 else None


def hand_summary(kept: KeptHand) -> HandSummary:
    """``kept`` as a search lists it (the same through every perspective: names, stacks,
    results, pot, winners and the board are what the table saw)."""
    row = kept.row
    board = row["board"] or ""
    winners = sorted({int(a["seat"]) for a in kept.awards if int(a["amount"]) > 0})
    return HandSummary(
        id=int(row["id"]),
        table=str(row["table_id"]),
        number=int(row["number"]),
        game=str(row["game"]),
        game_name=str(row["game_name"]),
        started_at=row["started_at"],
        players=[
            HistoryPlayer(
                seat=int(s["seat"]),
                name=str(s["name"]),
                starting_stack=int(s["starting_stack"]),
                finishing_stack=int(s["finishing_stack"]),
                net=int(s["net"]),
            )
            for s in sorted(kept.seats, key=lambda s: int(s["seat"]))
        ],
        pot=int(row["pot_total"]),
        winners=winners,
        board=[board[i : i + 2] for i in range(0, len(board), 2)],
    )


def _text(t: Text) -> TextFrame:
    return TextFrame.model_validate(t.as_json())


def _card(c: dict[str, Any], perspective: HistoryPerspective) -> HistoryCard:
    seen = visible(c, perspective)
    return HistoryCard(
        seat=_seat(c["seat"]),
        kind=c["kind"],
        card=c["card"] if seen else None,
        up=bool(c["up"]),
        visibility=c["visibility"] if seen else None,
    )


def _alert(a: dict[str, Any], perspective: HistoryPerspective) -> HistoryAlert:
    if perspective != "all" and is_security({"rule": a["rule"], "code": a["code"]}):
        return HistoryAlert(
            code=FLOOR_CALLED,
            severity="info",
            seat=None,
            rule="security",
            text=_text(Text("notice.floor_called.message")),
            remedy_text=_text(Text("notice.floor_called.remedy")),
        )
    return HistoryAlert(
        code=a["code"],
        severity=a["severity"],
        seat=_seat(a["seat"]),
        rule=a["rule"],
        text=TextFrame.model_validate(a["text"]),
        remedy_text=TextFrame.model_validate(a["remedy"]),
    )


def _streets(kept: KeptHand, perspective: HistoryPerspective) -> list[HistoryStreet]:
    names = [s.name for s in game(str(kept.row["game"])).streets]
    in_pots = sum(int(p["amount"]) for p in kept.pots) or int(kept.row["pot_total"])
    played = max(
        [0] + [int(a["street"]) for a in kept.actions] + [int(c["street"]) for c in kept.cards]
    )
    out: list[HistoryStreet] = []
    put_in = 0
    for n in range(min(played + 1, len(names))):
        actions = sorted((a for a in kept.actions if int(a["street"]) == n), key=lambda a: a["at"])
        cards = sorted((c for c in kept.cards if int(c["street"]) == n), key=lambda c: c["at"])
        put_in += sum(int(a["amount"]) for a in actions)
        out.append(
            HistoryStreet(
                street=n,
                name=_text(street(names[n])),
                cards=[_card(c, perspective) for c in cards],
                actions=[
                    HistoryAction(
                        seat=_seat(a["seat"]),
                        kind=str(a["kind"]),
                        amount=int(a["amount"]),
                        to_amount=int(a["to_amount"]),
                        all_in=bool(a["all_in"]),
                        cards=int(a["cards"]),
                    )
                    for a in actions
                ],
                # an uncalled bet goes back where the betting ended: never more than the pots
                pot=min(put_in, in_pots),
            )
        )
    return out


def _award_name(
    kept: KeptHand, seat: int, half: str, perspective: HistoryPerspective
) -> TextFrame | None:
    """The hand a seat that showed made (None: it did not show, or no name fits)."""
    showed = any(a["kind"] == "show" and a["seat"] == seat for a in kept.actions)
    if not showed:
        return None
    hole = [
        card_index(c["card"])
        for c in kept.cards
        if c["kind"] == "hole" and c["seat"] == seat and c["card"] and visible(c, perspective)
    ]
    board = [
        card_index(c["card"]) for c in kept.cards if c["kind"] == "board" and c["card"] is not None
    ]
    name = hand_name(game(str(kept.row["game"])).evaluation, hole, board, half)
    return None if name is None else _text(name)


def hand_view(kept: KeptHand, perspective: HistoryPerspective) -> HandView:
    """``kept`` street by street through ``perspective`` (see the module)."""
    row = kept.row
    awards: Sequence[dict[str, Any]] = sorted(kept.awards, key=lambda a: (a["pot"], a["n"]))
    return HandView(
        perspective=perspective,
        summary=hand_summary(kept),
        button=_seat(row["button"]),
        structure=str(row["structure"]),
        small_blind=int(row["small_blind"]),
        big_blind=int(row["big_blind"]),
        ante=int(row["ante"]),
        small_bet=int(row["small_bet"]),
        big_bet=int(row["big_bet"]),
        bring_in=int(row["bring_in"]),
        streets=_streets(kept, perspective),
        pots=[
            HistoryPot(
                pot=int(p["pot"]),
                amount=int(p["amount"]),
                eligible=sorted(int(s) for s in p["eligible"]),
            )
            for p in sorted(kept.pots, key=lambda p: p["pot"])
        ],
        awards=[
            HistoryAward(
                pot=int(a["pot"]),
                seat=int(a["seat"]),
                amount=int(a["amount"]),
                half=a["half"],
                hand_name=_award_name(kept, int(a["seat"]), str(a["half"]), perspective),
            )
            for a in awards
        ],
        alerts=[_alert(a, perspective) for a in sorted(kept.alerts, key=lambda a: a["n"])],
    )
