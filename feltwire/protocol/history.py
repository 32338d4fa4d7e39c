"""The hand history's API payloads: the kept hands a search finds (``GET
/api/history/hands``, :class:`HandList`), one hand street by street (``GET
/api/history/hands/{id}``, :class:`HandView`) and the players' statistics (``GET
/api/history/stats``, :class:`HistoryStats`: no card in them).

Both are written through a perspective (``perspective``): ``all`` — every card the hands
store holds (the dealer's, the producer's and the admin's), or ``shown`` — what the table
saw (the public's): the board, stud up cards and the hands shown at the showdown. A card
the perspective may not see is sent without its code (``card`` null, ``visibility``
null): the page draws its back, and nothing of it reaches the reader.

>>> HistoryCard(seat=3, kind="hole", card=None, up=False, visibility=None).card is None
True
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from feltwire.protocol.alerts import AlertCode
from feltwire.protocol.texts import TextFrame
from feltwire.protocol.values import Card, Chips, FrameModel, Seat, Severity, TableId

__all__ = [
    "HandList",
    "HandSummary",
    "HandView",
    "HistoryAction",
    "HistoryAlert",
    "HistoryAward",
    "HistoryCard",
    "HistoryPerspective",
    "HistoryPlayer",
    "HistoryPot",
    "HistoryStats",
    "HistoryStreet",
    "PlayerFigures",
    "SessionFigures",
    "StatsFigures",
]

HistoryPerspective = Literal["shown", "all"]
"""Whose eyes a kept hand is seen through: the table's (``shown``) or the staff's (``all``)."""


class HistoryPlayer(FrameModel):
    """One seat dealt in: who, the stacks before and after, the net result."""

    seat: Seat
    name: str = Field(description="the player's name as the table knew it")
    starting_stack: Chips
    finishing_stack: Chips
    net: int = Field(description="chips won (positive) or lost (negative) in the hand")


class HandSummary(FrameModel):
    """A kept hand as a search lists it."""

    id: int = Field(ge=1, description="the hand's id in the store (GET /api/history/hands/{id})")
    table: TableId
    number: int = Field(ge=1, description="the hand's number at its table")
    game: str = Field(description="the variant's code (NT, PO, F7S …)")
    game_name: str = Field(description="the game's name (No-limit Texas hold'em …)")
    started_at: float | None = Field(description="when it started, seconds since the epoch")
    players: list[HistoryPlayer]
    pot: Chips = Field(description="the chips in the pots")
    winners: list[Seat] = Field(description="the seats that took chips from a pot")
    board: list[Card] = Field(description="the community cards (empty in stud and draw)")


class HandList(FrameModel):
    """What a search found: ``total`` hands, ``hands`` from ``offset`` (oldest first)."""

    perspective: HistoryPerspective
    total: int = Field(ge=0, description="how many hands the filters find")
    offset: int = Field(ge=0)
    limit: int = Field(ge=1)
    hands: list[HandSummary]


class HistoryCard(FrameModel):
    """A card the hub saw: ``kind`` hole (a seat's), board, burn or discard. ``card`` and
    ``visibility`` are null when the perspective may not see it (or nobody read it)."""

    seat: Seat | None = Field(description="the seat holding it (a hole card, a discard)")
    kind: Literal["hole", "board", "burn", "discard"]
    card: Card | None
    up: bool = Field(description="dealt face up")
    visibility: Literal["public", "shown", "mucked", "dealer"] | None = Field(
        description="who could see it (the store's visibility); null: hidden from this reader"
    )


class HistoryAction(FrameModel):
    """A forced bet, a betting action, a draw, a show or a muck."""

    seat: Seat | None
    kind: str = Field(description="ante, blind, fold, check, call, bet, raise, discard, show …")
    amount: Chips = Field(description="chips the action added")
    to_amount: Chips = Field(description="the seat's bet in the round afterwards")
    all_in: bool
    cards: int = Field(ge=0, description="cards drawn (a discard)")


class HistoryStreet(FrameModel):
    """One street: its ``name`` (a ``street.*`` text), the cards dealt on it, the
    actions, the pot when it was over."""

    street: int = Field(ge=0, description="the street's place in the game, from 0")
    # no Field(description=…) on a model-typed field answered through a FastAPI route:
    # building the OpenAPI document wrote that description into the shared TextFrame
    # reference, and every JSON schema built after it differed (test_schema_file)
    name: TextFrame
    cards: list[HistoryCard]
    actions: list[HistoryAction]
    pot: Chips = Field(description="the chips in the middle after the street")


class HistoryPot(FrameModel):
    """One pot: its chips and the seats that could win it."""

    pot: int = Field(ge=0, description="0: the main pot, 1 …: the side pots")
    amount: Chips
    eligible: list[Seat]


class HistoryAward(FrameModel):
    """Chips one seat took from one pot, and what its hand was when it showed."""

    pot: int = Field(ge=0)
    seat: Seat
    amount: Chips
    half: Literal["whole", "high", "low"]
    hand_name: TextFrame | None = Field(description="a hand_name.* text, when the seat showed")


class HistoryAlert(FrameModel):
    """An alert the rules raised during the hand (a security alert, to the public, as
    the floor notice the public view showed)."""

    code: AlertCode
    severity: Severity
    seat: Seat | None
    rule: str
    text: TextFrame
    remedy_text: TextFrame


class HandView(FrameModel):
    """One kept hand, street by street."""

    perspective: HistoryPerspective
    summary: HandSummary
    button: Seat | None = Field(description="the button's seat (none in stud)")
    structure: str = Field(description="the betting structure (no-limit, pot-limit, fixed-limit)")
    small_blind: Chips
    big_blind: Chips
    ante: Chips
    small_bet: Chips = Field(description="a fixed-limit game's small bet")
    big_bet: Chips = Field(description="a fixed-limit game's big bet")
    bring_in: Chips = Field(description="a stud game's bring-in")
    streets: list[HistoryStreet]
    pots: list[HistoryPot]
    awards: list[HistoryAward]
    alerts: list[HistoryAlert]


# ------------------------------------------------------------------ statistics


class StatsFigures(FrameModel):
    """One person's counts over some hands and the figures made of them
    (``hub/adapters/hands/stats.py`` says what each counts; docs/hands.md
    "Statistics"). Percentages are 0–100; a figure is null when nothing could count."""

    name: str = Field(description="the person's name (their latest)")
    club_id: str | None = Field(
        description="the person's club id (sent to the staff only; null to the public)"
    )
    hands: int = Field(ge=0, description="hands the person was dealt in")
    vpip_hands: int = Field(ge=0)
    pfr_hands: int = Field(ge=0)
    three_bet_chances: int = Field(ge=0)
    three_bets: int = Field(ge=0)
    bets_raises: int = Field(ge=0, description="bets and raises after the first betting round")
    calls: int = Field(ge=0, description="calls after the first betting round")
    saw_second: int = Field(ge=0, description="hands in which they saw the second street")
    showdowns: int = Field(ge=0)
    won_at_showdown: int = Field(ge=0)
    net: int = Field(description="chips won less chips lost (after the rake)")
    seconds: float = Field(ge=0, description="the sessions' time")
    vpip: float | None = Field(description="VPIP, %")
    pfr: float | None = Field(description="PFR, %")
    three_bet: float | None = Field(description="3-bet, %")
    aggression: float | None = Field(description="AF: (bets + raises) / calls, later streets")
    wtsd: float | None = Field(description="WTSD, %")
    wsd: float | None = Field(description="W$SD, %")
    chips_per_hour: float | None
    hands_per_hour: float | None


class PlayerFigures(StatsFigures):
    """One person over every hand found."""

    sessions: int = Field(ge=0, description="how many sessions those hands make")


class SessionFigures(StatsFigures):
    """One person's session at one table."""

    table: TableId
    started: float = Field(description="the session's first hand's start, seconds since the epoch")
    ended: float = Field(description="its last hand's end, seconds since the epoch")


class HistoryStats(FrameModel):
    """``GET /api/history/stats``: each person's figures over the hands the filters
    find (``players``, by name), or with ``?sessions=1`` each person's sessions
    (``sessions``, by name, then start; ``players`` empty)."""

    by_session: bool = Field(description="rows per session (true) or per person (false)")
    players: list[PlayerFigures]
    sessions: list[SessionFigures]
