"""Dealing vocabulary: card inputs, what the hand expects next, and what was dealt.

The records of what happened (:class:`Deal`, :class:`Discard`, :class:`ShowOrMuck`,
:class:`Reshuffle`, like :class:`hub.rules.betting.Action`) are immutable ``NamedTuple``
records: one is made for every input, and that costs a third of a frozen dataclass.

Cards are :data:`~feltwire.cards.CardIndex` values ``rank * 4 + suit``
(``feltwire.cards.card_index``); :data:`UNKNOWN` (-1) stands for a card whose face nobody
recorded (PHH ``??``).

>>> Expected(kind=DealKind.HOLE, seat=3, up=True).kind.value
'hole'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, NamedTuple

from feltwire.cards import CardIndex

UNKNOWN: Final = CardIndex(-1)
"""A card whose face is not known (a PHH ``??``, an unread burn)."""


class DealKind(Enum):
    """Where a dealt card goes."""

    BURN = "burn"
    HOLE = "hole"
    BOARD = "board"


@dataclass(frozen=True, slots=True)
class Expected:
    """One card the hand is waiting for: a burn, a board card, or a card to ``seat``
    (face ``up`` or down)."""

    kind: DealKind
    seat: int | None = None
    up: bool | None = None


class Deal(NamedTuple):
    """A card that was dealt. ``implicit`` marks a burn the engine assumed because the
    input did not report it (replays; PHH records no burns). A ``NamedTuple`` for speed
    (one per card), immutable like the frozen dataclasses."""

    kind: DealKind
    card: CardIndex
    seat: int | None
    up: bool
    street: int
    implicit: bool = False


class Discard(NamedTuple):
    """A seat's discards in a draw (empty = stood pat)."""

    seat: int
    cards: tuple[CardIndex, ...]
    street: int


class Reshuffle(NamedTuple):
    """The stub ran out: these many discards and burns became the new stub (R-DEAL-5)."""

    cards: int
    street: int


class ShowOrMuck(NamedTuple):
    """A seat showed (``shown``) or mucked its hand at showdown."""

    seat: int
    shown: bool
    cards: tuple[CardIndex, ...]
