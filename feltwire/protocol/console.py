"""The dealer console's state frame (``{"type": "console", …}``).

``/ws/console`` sends it first and again after every burst of public-feed frames;
``GET /api/console/state`` answers with it too. It names no hole card before the
showdown: only hands shown (``shown``), stud up cards (``players[].up``) and the board.

>>> LegalBet(act="raise", min_to=20, max_to=990, fixed=False).amounts is None
True
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from feltwire.protocol.alerts import ConsoleAlert
from feltwire.protocol.events import PotAward
from feltwire.protocol.table import ClockLevel, ClockState, PublicAntenna, PublicPlayer, TopUp
from feltwire.protocol.texts import TextFrame
from feltwire.protocol.values import (
    Card,
    Chips,
    FrameModel,
    HandNumber,
    ReaderId,
    Seat,
    TableId,
    VersionedFrame,
)


class TournamentSchedule(FrameModel):
    """A tournament's schedule as the stakes record it."""

    starting_stack: Chips
    levels: list[ClockLevel]


class Stakes(FrameModel):
    """The table's game and stakes (as the event log records them when it opens)."""

    game: str = Field(description="the game's PHH variant code (NT, PO, FO/8 …)")
    small_blind: Chips
    big_blind: Chips
    ante: Chips
    small_bet: Chips
    big_bet: Chips
    debounce_seconds: float = Field(ge=0)
    tournament: TournamentSchedule | None = Field(None, description="absent: a cash game")


class Limits(FrameModel):
    """A buy-in's or top-up's limits (``max`` None: no maximum)."""

    min: Chips
    max: Chips | None
    rule: str


class ConsolePlayer(PublicPlayer):
    """A player as the console shows them: what they owe, which seat commands the
    table's rules allow now, and their stud up cards."""

    pending: Chips = Field(description="chips bought, delivered when the hand ends")
    owes: Literal["nothing", "small blind", "both blinds"]
    waiting: bool = Field(description="waits for the big blind to be dealt in")
    can_leave: bool
    can_sit_out: bool
    can_come_back: bool
    can_top_up: bool
    top_up: Limits
    up: list[Card] = Field(description="stud up cards (face up)")
    cards: int = Field(
        0, ge=0, description="hole cards the hand dealt the seat (read or entered by hand)"
    )


class LegalBet(FrameModel):
    """The bet or raise the seat to act may make."""

    act: Literal["bet", "raise", "complete"]
    min_to: Chips
    max_to: Chips
    fixed: bool = Field(description="fixed limit: the sizes are in amounts")
    amounts: list[Chips] | None = Field(None, description="fixed limit: the allowed sizes")


class LegalAllIn(FrameModel):
    """An all-in the seat to act may make: to what bet, with how many chips."""

    to: Chips
    amount: Chips


class LegalActions(FrameModel):
    """What the seat to act may do, straight from the engine."""

    seat: Seat
    fold: bool
    check: bool
    call: Chips | None = Field(description="the amount to call; None: no call")
    bring_in: Chips | None
    bet: LegalBet | None
    all_in: LegalAllIn | None
    bet_now: Chips = Field(description="the seat's bet in this round")
    stack: Chips


class ShowdownChoices(FrameModel):
    """Who is asked to show or muck next, and which seats may do which."""

    next: Seat | None
    show: list[Seat]
    muck: list[Seat]
    part: bool = Field(description="the uncalled winner may show only some cards")
    uncalled: bool


class ShownHand(FrameModel):
    """A hand shown at the showdown (its cards are public then)."""

    seat: Seat
    cards: list[Card]
    whole: bool


class NextCard(FrameModel):
    """What the dealer deals next, as the rules' dealing procedure expects it: a seat's
    n-th card (face up or down), the burn, a board card, a draw's replacement, or a
    seat's turn to throw its discards; the antenna it goes on (the console lights it)."""

    kind: Literal["hole", "burn", "board", "replacement", "discard"]
    street: str = Field(description="the engine's street name (pre-flop, flop, 3rd street …)")
    reader: ReaderId = Field(description="the antenna the card goes on")
    seat: Seat | None = Field(description="the seat it goes to; None: the burn, the board")
    index: int = Field(ge=1, description="which card: of the seat's hand, the street's board")
    total: int = Field(ge=1, description="how many: the seat's cards after this street …")
    up: bool = Field(description="dealt face up")
    unread: list[Seat] = Field(description="seats passed over whose card was not read yet")
    text: TextFrame = Field(description="what to say: a next_deal.* catalog text")


class UndoableAction(FrameModel):
    """The betting action undo takes back: the seat, what it did, its bet afterwards."""

    seat: Seat
    act: Literal["fold", "check", "call", "bet", "raise", "bring-in", "complete"]
    amount: Chips = Field(description="the chips it added")
    to: Chips = Field(description="its bet in the round afterwards")
    all_in: bool


class PotAwardRecord(PotAward):
    """A pot award of the last hand, as the rules recorded it."""

    type: Literal["PotAwarded"] = "PotAwarded"


class LastHand(FrameModel):
    """The last hand, between hands: void or not, its pots, the chips delivered."""

    hand: HandNumber
    voided: bool
    awards: list[PotAwardRecord]
    top_ups: list[TopUp]


class Seating(FrameModel):
    """What the seat commands need: the seats, the empty ones, the buy-in's limits."""

    seats: int = Field(ge=1, description="seats at the table")
    empty: list[Seat]
    full: bool
    buy_in: Limits


class ConsoleStateFrame(VersionedFrame):
    """The dealer console's whole view of the table."""

    type: Literal["console"] = "console"
    table: TableId
    hand: HandNumber
    in_hand: bool
    game: str
    game_name: str
    structure: str = Field(description="no limit, pot limit, fixed limit …")
    stakes: Stakes
    phase: Literal["dealing", "drawing", "betting", "showdown", "complete"] | None
    street: str | None
    button: Seat | None
    small_blind: Seat | None = Field(description="the small blind's seat")
    big_blind: Seat | None = Field(description="the big blind's seat")
    pot: Chips
    current_bet: Chips
    board: list[Card]
    players: list[ConsolePlayer]
    acting: Seat | None
    legal: LegalActions | None
    showdown: ShowdownChoices | None
    shown: list[ShownHand]
    can_undo: bool
    can_misdeal: bool
    last_hand: LastHand | None
    alerts: list[ConsoleAlert]
    seating: Seating
    live_hole_cards: bool = Field(description="the overlay shows hole cards without delay")
    antennas: list[PublicAntenna]
    next_deal: NextCard | None = Field(None, description="the next card to deal; None: none")
    last_action: UndoableAction | None = Field(None, description="what undo would take back")
    clock: ClockState | None = Field(None, description="the tournament clock; None: cash")


__all__ = [
    "ConsolePlayer",
    "ConsoleStateFrame",
    "LastHand",
    "LegalActions",
    "LegalAllIn",
    "LegalBet",
    "Limits",
    "NextCard",
    "PotAwardRecord",
    "Seating",
    "ShowdownChoices",
    "ShownHand",
    "Stakes",
    "TournamentSchedule",
    "UndoableAction",
]
