"""What the dealing monitor is fed: presence, console actions and dealer commands.

Each input is a frozen value stamped with an explicit ``now`` (seconds; the hub's receive
time — nothing in :mod:`hub.rules` reads a clock):

* presence — :class:`Inventory` ("the cards on antenna X are now {…}", already mapped
  from tags to cards), :class:`UnknownTag` and :class:`TagClash` (two tags that map to
  one card) from the hub's ingest, and :class:`Tick` when time passes without a read;
* actions entered at the dealer console — :class:`ConsoleAction` (fold, check, call,
  bet, raise, …, for a table seat), :class:`ShowHand` and :class:`MuckHand`;
* dealer commands — :class:`ManualCard` (a tag that will not read), :class:`DeclareMisdeal`
  and :class:`UndoAction`.

>>> ConsoleAction(5, Act.RAISE, now=12.5, to=40)
ConsoleAction(seat=5, act=<Act.RAISE: 'raise'>, now=12.5, to=40)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from feltwire.cards import CardIndex
from hub.rules.errors import TableSeat

__all__ = [
    "Act",
    "ConsoleAction",
    "DeclareMisdeal",
    "Input",
    "Inventory",
    "ManualCard",
    "MuckHand",
    "ShowHand",
    "TagClash",
    "Tick",
    "UndoAction",
    "UnknownTag",
]


@dataclass(frozen=True, slots=True)
class Inventory:
    """Every card on antenna ``reader`` now (an empty set: the antenna is bare)."""

    reader: str
    cards: frozenset[CardIndex]
    now: float


@dataclass(frozen=True, slots=True)
class UnknownTag:
    """The ingest saw a tag on ``reader`` that is not in the registered deck."""

    reader: str
    now: float


@dataclass(frozen=True, slots=True)
class TagClash:
    """The ingest saw two tags on ``reader`` that map to one card."""

    reader: str
    card: CardIndex
    now: float


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed without a read (lets pending departures become certain)."""

    now: float


class Act(enum.Enum):
    """What the dealer enters at the console for a seat."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"
    BRING_IN = "bring-in"
    ALL_IN = "all-in"


@dataclass(frozen=True, slots=True)
class ConsoleAction:
    """A betting action for table seat ``seat``; ``to`` is the total of a bet, raise or
    completion this round."""

    seat: TableSeat
    act: Act
    now: float
    to: int = 0


@dataclass(frozen=True, slots=True)
class ShowHand:
    """The dealer read the hand of table seat ``seat`` (shown face up). ``cards``: the
    cards shown when a player who won uncontested shows only some (R-SHOW-3); empty for
    the whole hand."""

    seat: TableSeat
    now: float
    cards: tuple[CardIndex, ...] = ()


@dataclass(frozen=True, slots=True)
class MuckHand:
    """The dealer confirms that table seat ``seat`` mucked its hand."""

    seat: TableSeat
    now: float


@dataclass(frozen=True, slots=True)
class ManualCard:
    """A card whose tag will not read lies on ``reader``; ``card`` None: its face is not
    known (a hole card the dealer must not look at, an unread burn)."""

    reader: str
    card: CardIndex | None
    now: float


@dataclass(frozen=True, slots=True)
class DeclareMisdeal:
    """The dealer declares a misdeal: the hand is void, every chip goes back."""

    now: float


@dataclass(frozen=True, slots=True)
class UndoAction:
    """Take back the last action entered at the console."""

    now: float


Input = (
    Inventory
    | UnknownTag
    | TagClash
    | Tick
    | ConsoleAction
    | ShowHand
    | MuckHand
    | ManualCard
    | DeclareMisdeal
    | UndoAction
)
