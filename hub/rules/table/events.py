"""What happened at the table between and around hands: every :class:`~hub.rules.table.Table`
operation returns one of these frozen events and appends it to the table's log.

>>> joined = PlayerJoined(3, "Ann", 1000, Entry.POST, BuyInLimits(400, 1000, "R-BUY-2"),
...                       None, at=0.0)
>>> joined.seat, joined.limits.maximum
(3, 1000)
"""

from __future__ import annotations

from dataclasses import dataclass

from hub.rules.setup import HandSetup
from hub.rules.table.blinds import BlindPost
from hub.rules.table.config import BuyInLimits
from hub.rules.table.seating import Entry, Owed
from hub.rules.tournament import Elimination

__all__ = [
    "CameBack",
    "ChipsAdded",
    "ChipsDelivered",
    "HandFinished",
    "HandStarted",
    "HandVoided",
    "Override",
    "PlayerJoined",
    "PlayerLeft",
    "SatOut",
    "TableEvent",
]


@dataclass(frozen=True, slots=True)
class Override:
    """A manager's decision to allow an amount outside the limits (R-BUY-4), with the
    reason (for example "all players agreed"); it is kept in the table's log."""

    reason: str
    by: str = "manager"


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A player took a seat with a buy-in."""

    seat: int
    player: str
    buy_in: int
    entry: Entry
    limits: BuyInLimits
    override: Override | None
    at: float


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player left with ``stack`` chips (remembered for R-BUY-3)."""

    seat: int
    player: str
    stack: int
    at: float


@dataclass(frozen=True, slots=True)
class SatOut:
    """A player sits out from the next hand."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class CameBack:
    """A player is back; ``owes`` is what they post (or wait for the big blind for)."""

    seat: int
    player: str
    entry: Entry
    owes: Owed


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """Chips bought at the table: in play now, or, when ``pending`` (bought during a hand
    the seat is in, R-BUY-5), put in the stack when that hand ends, up to the maximum
    (:class:`ChipsDelivered`)."""

    seat: int
    player: str
    amount: int
    pending: bool
    limits: BuyInLimits
    override: Override | None
    at: float


@dataclass(frozen=True, slots=True)
class ChipsDelivered:
    """Chips bought during a hand, put in the stack when the hand ended (finished or
    void). They are checked against the stack then (R-BUY-4): what would lift it over the
    maximum is refused — the player keeps (or is paid back) the ``refused`` chips' money,
    and :attr:`message` says so. Chips a manager allowed (an override) are delivered in
    full."""

    seat: int
    player: str
    hand: int
    """The hand during which the chips were bought."""
    bought: int
    delivered: int
    refused: int
    stack: int
    """The stack after the delivery (what the player has for the next hand)."""
    maximum: int | None
    rule: str = "R-BUY-4"

    @property
    def message(self) -> str:
        """What the dealer tells the player (and the console shows)."""
        if not self.refused:
            return (
                f"seat {self.seat}: the {self.bought} bought during hand {self.hand} are "
                f"added; the stack is {self.stack}"
            )
        have = self.stack - self.delivered
        return (
            f"seat {self.seat} can add at most {self.delivered} of the {self.bought} bought "
            f"during hand {self.hand} (the stack is {have}, the maximum {self.maximum}): "
            f"{self.delivered} added, {self.refused} refused"
        )


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was set up: who posts what, who waits, where the button and blinds are."""

    number: int
    setup: HandSetup
    small_blind: int | None
    """Table seat of the small blind (None: dead, or stud)."""
    big_blind: int | None
    posts: tuple[BlindPost, ...]
    """Blinds in hand order (antes are in ``setup.stakes.antes``)."""
    waiting: tuple[int, ...]
    """Seats of ready players not dealt in (waiting for the big blind or the button)."""
    heads_up: bool


@dataclass(frozen=True, slots=True)
class HandFinished:
    """A hand's chips are back in the stacks; ``rake`` was taken (seat → chips)."""

    number: int
    stacks: tuple[tuple[int, int], ...]
    """(table seat, stack) of every seat dealt in, after the rake."""
    rake: int
    rake_by_seat: tuple[tuple[int, int], ...]
    busted: tuple[int, ...]
    eliminations: tuple[Elimination, ...] = ()
    deliveries: tuple[ChipsDelivered, ...] = ()
    """Chips bought during the hand, delivered after it (``stacks`` is before them)."""


@dataclass(frozen=True, slots=True)
class HandVoided:
    """A misdeal (R-DEAL-6): the hand is void, every chip goes back, the button stays."""

    number: int
    rule: str = "R-DEAL-6"
    deliveries: tuple[ChipsDelivered, ...] = ()
    """Chips bought during the void hand, delivered after it."""


TableEvent = (
    PlayerJoined
    | PlayerLeft
    | SatOut
    | CameBack
    | ChipsAdded
    | ChipsDelivered
    | HandStarted
    | HandFinished
    | HandVoided
    | Override
)
"""Anything a table operation reports (an :class:`Override` is logged before the event
it allowed)."""
