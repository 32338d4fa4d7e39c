"""Table frames: antennas, hands starting and ending, seats, turns, the clock, buttons,
and the public snapshot a page gets when it opens.

An antenna is seen two ways. The public (and the console) see cards only where they lie
face up — a :class:`FaceUpAntenna` (the board, a stud up-card antenna) names them, a
:class:`FaceDownAntenna` (a seat, the burn, the muck, the registration pad) only counts
them. The overlay sees every card (:class:`OverlayAntenna`).

>>> from pydantic import TypeAdapter
>>> view = TypeAdapter(PublicAntenna).validate_python(
...     {"reader": "seat3", "kind": "seat", "count": 2})
>>> type(view).__name__
'FaceDownAntenna'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from feltwire.protocol.alerts import AlertFrame
from feltwire.protocol.texts import AwardLine, TextFrame
from feltwire.protocol.topics import ReaderKind
from feltwire.protocol.values import (
    Card,
    Chips,
    FrameModel,
    HandNumber,
    ReaderId,
    Seat,
    TableId,
    Timestamp,
    VersionedFrame,
)

# ------------------------------------------------------------------ antennas


class FaceUpAntenna(FrameModel):
    """An antenna whose cards lie face up (the board, a stud up-card antenna): named."""

    reader: ReaderId
    kind: Literal["board", "up"]
    count: int = Field(ge=0, description="cards on it")
    cards: list[Card]
    unknown: bool = Field(
        False,
        description=(
            "the node that reads it is offline: what lies there is not known (count and "
            "cards say nothing); left out while it is known"
        ),
    )


class FaceDownAntenna(FrameModel):
    """An antenna whose cards are secret (a seat, the burn, the muck, the pad): only how
    many lie on it."""

    reader: ReaderId
    kind: Literal["seat", "burn", "muck", "register"]
    count: int = Field(ge=0, description="cards on it")
    unknown: bool = Field(
        False,
        description=(
            "the node that reads it is offline: what lies there is not known (count and "
            "cards say nothing); left out while it is known"
        ),
    )


PublicAntenna = Annotated[FaceUpAntenna | FaceDownAntenna, Field(discriminator="kind")]
"""An antenna as the public and the console see it."""


class OverlayAntenna(FrameModel):
    """An antenna as the producer's overlay sees it: every card."""

    reader: ReaderId
    kind: ReaderKind
    count: int = Field(ge=0, description="cards on it")
    cards: list[Card]
    unknown: bool = Field(
        False,
        description=(
            "the node that reads it is offline: what lies there is not known (count and "
            "cards say nothing); left out while it is known"
        ),
    )


class AntennaChange(VersionedFrame):
    """What every antenna frame has: ``type`` ``antenna``, the change's number, the time."""

    type: Literal["antenna"] = "antenna"
    n: int = Field(ge=1, description="the hub's count of antenna changes so far")
    t: Timestamp


class FaceUpAntennaFrame(FaceUpAntenna, AntennaChange):
    """The cards on a face-up antenna changed (public feed)."""


class FaceDownAntennaFrame(FaceDownAntenna, AntennaChange):
    """The cards on a secret antenna changed: how many lie there now (public feed)."""


PublicAntennaFrame = Annotated[
    FaceUpAntennaFrame | FaceDownAntennaFrame, Field(discriminator="kind")
]
"""An antenna change as the public feed carries it."""


class OverlayAntennaFrame(OverlayAntenna, AntennaChange):
    """The cards on an antenna changed, with every card and what arrived and left
    (overlay feed)."""

    arrived: list[Card]
    left: list[Card]


# ------------------------------------------------------------------ hands and seats


class HandFrame(VersionedFrame):
    """A hand starts: who is in it, the blinds' seats, stacks, names, the forced bets."""

    type: Literal["hand"] = "hand"
    hand: HandNumber
    t: Timestamp
    button: Seat
    seats: list[Seat] = Field(description="the seats dealt in, in hand order")
    small_blind: Seat | None = Field(description="the seat that posts the small blind")
    big_blind: Seat | None = Field(description="the seat that posts the big blind")
    stacks: list[tuple[Seat, Chips]] = Field(description="(seat, chips) at the start")
    names: list[tuple[Seat, str]] = Field(description="(seat, player's name)")
    posts: list[tuple[Seat, Literal["ante", "blind", "dead blind"], Chips]] = Field(
        description="(seat, kind, chips) of each forced bet"
    )


class TopUp(FrameModel):
    """Chips bought during a hand, as delivered when it ended (R-BUY-4)."""

    seat: Seat
    bought: Chips
    delivered: Chips
    refused: Chips
    stack: Chips
    maximum: Chips | None
    rule: str
    message: str


class HandEndFrame(VersionedFrame):
    """A hand ended (or was void): the award texts, chips delivered, the stacks now."""

    type: Literal["hand_end"] = "hand_end"
    hand: HandNumber
    t: Timestamp
    voided: bool
    awards: list[AwardLine] = Field(description="each pot's award, as the dealer reads it out")
    top_ups: list[TopUp]
    stacks: list[tuple[Seat, Chips]]


class PublicPlayer(FrameModel):
    """A seated player as anyone may see them."""

    seat: Seat
    name: str
    stack: Chips = Field(description="chips behind (while a hand runs: not yet bet)")
    bet: Chips = Field(description="chips bet in this round")
    in_hand: bool
    folded: bool
    all_in: bool
    sitting_out: bool


class SeatsFrame(VersionedFrame):
    """A seat command was applied (sit, top up, sit out, come back, leave)."""

    type: Literal["seats"] = "seats"
    hand: HandNumber
    t: Timestamp
    op: Literal["sit", "top_up", "sit_out", "come_back", "leave"]
    seat: Seat
    players: list[PublicPlayer]


class TurnFrame(VersionedFrame):
    """Whose turn it is, who is all in, who folded."""

    type: Literal["turn"] = "turn"
    hand: HandNumber
    t: Timestamp
    acting: Seat | None
    all_in: list[Seat]
    folded: list[Seat]


class ButtonFrame(VersionedFrame):
    """A dealer button pressed on a node."""

    type: Literal["button"] = "button"
    node: str
    button: str
    t: Timestamp


# ------------------------------------------------------------------ the clock


class ClockLevel(FrameModel):
    """One blind level of a tournament."""

    small_blind: Chips
    big_blind: Chips
    ante: Chips
    minutes: float = Field(gt=0)


class ClockState(ClockLevel):
    """The tournament clock as the public sees it: the running level and the next."""

    level: int = Field(ge=1, description="the running level, 1-based")
    levels: int = Field(ge=1, description="how many levels the schedule has")
    time_left: float = Field(ge=0, description="seconds to the next level")
    started: bool
    paused: bool
    next: ClockLevel | None = Field(description="the next level; None in the last")
    starting_stack: Chips


class ClockFrame(ClockState, VersionedFrame):
    """The tournament clock started, paused, resumed or reached a new level."""

    type: Literal["clock"] = "clock"
    reason: Literal["start", "pause", "resume", "level"]
    t: Timestamp


# ------------------------------------------------------------------ the snapshot


class PublicShownHand(FrameModel):
    """A hand shown, as the public view has it: never its cards."""

    seat: Seat
    count: int = Field(ge=0, description="how many cards it showed")
    whole: bool


class PublicShare(FrameModel):
    """What one player took from one pot, as the room is told: the player's name, the
    chips and, when the hand was shown at a showdown, what it made (never its cards)."""

    seat: Seat
    name: str = Field(description="the player's name")
    amount: Chips
    half: Literal["whole", "high", "low"]
    text: TextFrame = Field(description="a result.share.* text: name, amount, hand name")
    message: str = Field(description="the text in English")


class PublicPotResult(FrameModel):
    """One pot of the last hand as the public view shows it: labelled main or side pot,
    each winner named."""

    pot: int = Field(ge=0, description="0 the main pot, then the side pots")
    pot_name: TextFrame = Field(description="award.pot.main or award.pot.side")
    amount: Chips
    uncontested: bool
    shares: list[PublicShare]


class PublicTableState(FrameModel):
    """The hand as the public may see it (the rules' part of the public snapshot)."""

    hand: HandNumber
    in_hand: bool
    button: Seat | None
    seats: list[Seat]
    small_blind: Seat | None = Field(description="the small blind's seat")
    big_blind: Seat | None = Field(description="the big blind's seat")
    acting: Seat | None
    all_in: list[Seat]
    folded: list[Seat]
    pot: Chips
    alerts: list[AlertFrame] = Field(description="the recent alerts, oldest first")
    awards: list[AwardLine] = Field(description="the last hand's award read-outs")
    players: list[PublicPlayer]
    board: list[Card]
    shown: list[PublicShownHand]
    clock: ClockState | None = Field(description="the tournament clock; None: a cash game")
    results: list[PublicPotResult] = Field(
        default_factory=list,
        description="the last hand's pots with the winners' names and hands (public view)",
    )
    phase: Literal["dealing", "drawing", "betting", "showdown", "complete"] | None = Field(
        None, description="what the running hand waits for; None between hands"
    )


class PublicSnapshotFrame(VersionedFrame):
    """The public picture of the table, first on ``/ws/public``: every antenna, and the
    hand when the hub runs the rules."""

    type: Literal["snapshot"] = "snapshot"
    table: TableId
    antennas: list[PublicAntenna]
    rules: PublicTableState | None = Field(None, description="absent: no rules run")


__all__ = [
    "AntennaChange",
    "ButtonFrame",
    "ClockFrame",
    "ClockLevel",
    "ClockState",
    "FaceDownAntenna",
    "FaceDownAntennaFrame",
    "FaceUpAntenna",
    "FaceUpAntennaFrame",
    "HandEndFrame",
    "HandFrame",
    "OverlayAntenna",
    "OverlayAntennaFrame",
    "PublicAntenna",
    "PublicAntennaFrame",
    "PublicPlayer",
    "PublicPotResult",
    "PublicShare",
    "PublicShownHand",
    "PublicSnapshotFrame",
    "PublicTableState",
    "SeatsFrame",
    "TopUp",
    "TurnFrame",
]
