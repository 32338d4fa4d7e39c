"""The producer's overlay: its snapshot, its picture of the table, and equity frames.

Every frame of ``/ws/overlay`` is held back by the configured delay. The hub folds the
released frames into a picture of the table (:class:`OverlayPicture`) and sends it with
the snapshot and, as a ``state`` frame, after every change; ``equity`` frames carry each
seat's chances.

>>> OverlayStateFrame(t=1.0, state=OverlayPicture(
...     rules=False, hand=None, in_hand=False, voided=False, button=None, small_blind=None,
...     big_blind=None, acting=None, pot=0, board=[], last_action=None, players=[],
...     equity=None, awards=[])).type
'state'
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from feltwire.protocol.table import OverlayAntenna
from feltwire.protocol.texts import AwardLine
from feltwire.protocol.values import (
    ActionKind,
    Card,
    Chips,
    FrameModel,
    HandNumber,
    ReaderId,
    Seat,
    Share,
    TableId,
    Timestamp,
    VersionedFrame,
)

# ------------------------------------------------------------------ equity


class SeatChances(FrameModel):
    """One seat's chances as the equity engine gives them (fields it may leave out)."""

    high: Share | None = Field(None, description="hi-lo: chance to take (part of) the high")
    low: Share | None = Field(None, description="hi-lo: chance to take (part of) the low")
    outs: list[Card] | None = Field(None, description="heads-up: next cards to lead alone")
    split_outs: list[Card] | None = Field(None, description="heads-up: next cards to tie")


class SeatOdds(SeatChances):
    """A seat's equity, chances to win and tie, and the name of its hand."""

    equity: Share = Field(description="the seat's share of the pot")
    win: Share
    tie: Share
    hand_name: str | None = Field(description="None before five cards are known")


class SeatEquity(SeatOdds):
    """One seat's equity in an ``equity`` frame."""

    reader: ReaderId
    seat: Seat


class EquityOuts(FrameModel):
    """Heads-up on the flop and turn: who leads, and how many cards could come next."""

    leader: Seat | None = Field(description="the sole leader now; None: shared")
    stub: int = Field(ge=0)


class EquityFrame(VersionedFrame):
    """Each seat's equity for the cards on the table (no players: the figures clear)."""

    type: Literal["equity"] = "equity"
    hand: HandNumber | None
    exact: bool = Field(description="exact (every board) or an estimate")
    error: float = Field(ge=0, description="the estimate's error bound")
    low: Share | None = Field(description="hi-lo: the chance a low qualifies")
    board: list[Card]
    outs: EquityOuts | None
    players: list[SeatEquity]
    t: Timestamp


# ------------------------------------------------------------------ the picture


class PlayerEquity(SeatOdds):
    """A player's equity as the overlay's picture shows it."""

    exact: bool


class LastAction(FrameModel):
    """The last betting action, as the overlay shows it."""

    seat: Seat
    kind: ActionKind
    amount: Chips
    to: Chips
    all_in: bool


class OverlayPlayer(FrameModel):
    """A player in the overlay's picture: every card (behind the delay)."""

    seat: Seat
    name: str | None = Field(description="None when the hub runs no rules")
    in_hand: bool
    stack: int | None = Field(description="None when the hub runs no rules")
    bet: int
    cards: list[Card | None] = Field(description="hole cards (None: not read yet)")
    folded: bool
    all_in: bool
    acting: bool
    button: bool
    shown: bool
    shown_cards: list[Card]
    mucked: bool
    won: Chips
    equity: PlayerEquity | None
    country: str | None = Field(
        None,
        pattern=r"^[A-Z]{2}$",
        description="the player's country, ISO 3166 alpha-2 (shown as a flag; None: none)",
    )
    photo: str | None = Field(
        None,
        description=(
            "the file name of the player's photo in the configured photo folder, served at "
            "/overlay/photo/<name> (None: none)"
        ),
    )


class EquitySummary(FrameModel):
    """The equity figures' state: exact or not, how stale."""

    exact: bool
    error: float = Field(ge=0)
    low: Share | None
    stale: bool = Field(description="computed for another board than the one shown")
    outs: EquityOuts | None


class AwardPayout(FrameModel):
    """Chips a seat took from a pot, as the overlay shows it."""

    seat: Seat
    amount: Chips
    half: Literal["whole", "high", "low"]
    hand_name: str | None = Field(
        None, description="the winning hand's name (None: not shown, or a pot uncontested)"
    )


class OverlayStakes(FrameModel):
    """The hand's blinds and ante, for the overlay's ticker."""

    small_blind: Chips | None = Field(description="None: the game has no blinds (stud)")
    big_blind: Chips | None
    ante: Chips


class OverlayLevel(FrameModel):
    """A tournament level's blinds and ante, for the overlay's ticker."""

    small_blind: Chips
    big_blind: Chips
    ante: Chips


class OverlayClock(OverlayLevel):
    """The tournament clock as of the picture (behind the delay, like every card).

    The picture holds when its level ends on the hub's time (``ends_at``); the hub turns
    that into ``time_left`` as of the delayed picture each time it sends one (a ``state``
    frame as it is released, the snapshot), and the page counts down from there.
    """

    level: int = Field(ge=1, description="the running level, 1-based")
    levels: int = Field(ge=1, description="how many levels the schedule has")
    started: bool
    paused: bool
    time_left: float | None = Field(
        ge=0,
        description=(
            "seconds left in the level as of the frame (None only inside the hub, before "
            "it sends the picture)"
        ),
    )
    ends_at: float | None = Field(
        description="the hub's time the level ends (None: paused, not started, or over)"
    )
    next: OverlayLevel | None = Field(description="the next level (None: the last)")


class OverlayAward(AwardLine):
    """A pot awarded, from the hand's ``PotAwarded`` event."""

    pot: int = Field(ge=0)
    amount: Chips
    payouts: list[AwardPayout]


class OverlayAwardText(AwardLine):
    """A pot awarded, known only by its text (from ``hand_end``, when no ``PotAwarded``
    event was released)."""


class OverlayPicture(FrameModel):
    """What the overlay shows: the hand, every player, the board, equity, the awards."""

    rules: bool = Field(description="the hub runs the rules (names, chips, the hand)")
    hand: HandNumber | None
    in_hand: bool
    voided: bool
    button: Seat | None
    small_blind: Seat | None = Field(description="the small blind's seat")
    big_blind: Seat | None = Field(description="the big blind's seat")
    acting: Seat | None
    pot: int
    board: list[Card]
    last_action: LastAction | None
    players: list[OverlayPlayer]
    equity: EquitySummary | None
    awards: list[OverlayAward | OverlayAwardText]
    unknown: list[ReaderId] = Field(
        default_factory=list,
        description=(
            "the antennas whose node is offline: what lies there is not known (their "
            "cards are left out of the picture)"
        ),
    )
    hole_cards: int = Field(
        0, ge=0, description="the hole cards each player gets in the game (0: not known)"
    )
    stakes: OverlayStakes | None = Field(None, description="None: the hub runs no rules")
    pots: list[Chips] = Field(
        default_factory=list,
        description="the main pot, then each side pot, bets in front of the players included",
    )
    clock: OverlayClock | None = Field(
        None, description="the tournament clock as of the picture (None: a cash game)"
    )


class OverlayStateFrame(VersionedFrame):
    """The overlay's picture after a released frame changed it."""

    type: Literal["state"] = "state"
    t: Timestamp | None = Field(description="the time of the frame that changed it")
    state: OverlayPicture


class OverlaySettings(FrameModel):
    """The overlay's branding (from the config) and the producer's switches (live, not
    delayed: they show or hide graphics, never a card)."""

    name: str | None = Field(description="the room or table name on the ticker (None: the id)")
    logo: str | None = Field(description="the logo's URL on the hub (None: no logo)")
    leaderboard: bool = Field(description="the producer shows the chip leaderboard")
    plate_stats: bool = Field(
        False, description="the producer shows each player's statistics on their plate"
    )


class OverlaySettingsFrame(VersionedFrame):
    """``GET``/``POST /api/overlay/settings`` and, on ``/ws/overlay`` at once (not behind
    the delay), each change the producer makes."""

    type: Literal["settings"] = "settings"
    table: TableId
    settings: OverlaySettings


class PlateFigures(FrameModel):
    """One player's statistics on their plate (percentages 0–100, null: nothing could
    count)."""

    name: str = Field(description="the player's name, as the table and the store know it")
    hands: int = Field(ge=1)
    vpip: float | None
    pfr: float | None
    three_bet: float | None
    aggression: float | None
    wtsd: float | None
    wsd: float | None
    net: int


class PlateStatsFrame(VersionedFrame):
    """The players' statistics for the plates (``plate_stats`` switch on), from the hands
    store: over the table's hands that ended in the ``night_s`` seconds up to
    ``as_of`` — the time of the delayed picture when it was computed, so no hand the
    picture has not finished counts. Sent on ``/ws/overlay`` as the delayed picture
    reaches a hand's end or start (and in the snapshot), not per frame."""

    type: Literal["plate_stats"] = "plate_stats"
    table: TableId
    as_of: Timestamp = Field(
        description="the hub's time up to which the hands counted ended (the delayed picture's)"
    )
    night_s: float = Field(gt=0, description="how far back from as_of the hands counted ended")
    players: list[PlateFigures]


class OverlaySnapshotFrame(VersionedFrame):
    """First on ``/ws/overlay``: every antenna and the picture, as of the delay."""

    type: Literal["snapshot"] = "snapshot"
    table: TableId
    delay_s: float = Field(ge=0, description="how long the feed is held back, seconds")
    antennas: list[OverlayAntenna]
    state: OverlayPicture
    held: int = Field(0, ge=0, description="frames the delay holds back now")
    next_release_s: float | None = Field(
        None, ge=0, description="seconds until the next held frame is released (None: none held)"
    )
    settings: OverlaySettings | None = Field(
        None, description="the branding and the producer's switches (None: the defaults)"
    )
    plate_stats: PlateStatsFrame | None = Field(
        None, description="the plates' statistics (None: switched off or not computed yet)"
    )


class OverlayDelayStatus(VersionedFrame):
    """``GET /api/overlay/delay``: the delay's state for the producer's preview (no card)."""

    type: Literal["delay"] = "delay"
    table: TableId
    delay_s: float = Field(ge=0, description="how long the feed is held back, seconds")
    held: int = Field(ge=0, description="frames the delay holds back now")
    next_release_s: float | None = Field(
        ge=0, description="seconds until the next held frame is released (None: none held)"
    )


__all__ = [
    "AwardPayout",
    "EquityFrame",
    "EquityOuts",
    "EquitySummary",
    "LastAction",
    "OverlayAward",
    "OverlayAwardText",
    "OverlayClock",
    "OverlayDelayStatus",
    "OverlayLevel",
    "OverlayPicture",
    "OverlayPlayer",
    "OverlaySettings",
    "OverlaySettingsFrame",
    "OverlaySnapshotFrame",
    "OverlayStakes",
    "OverlayStateFrame",
    "PlateFigures",
    "PlateStatsFrame",
    "PlayerEquity",
    "SeatChances",
    "SeatEquity",
    "SeatOdds",
]
