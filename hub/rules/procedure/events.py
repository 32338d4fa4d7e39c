"""What happened in a hand, as the dealing monitor reports it.

Every event is a frozen value with :attr:`~_EventBase.public` (False when it carries a
card that must stay hidden: a face-down hole card, a burn) and
:meth:`~_EventBase.as_dict` (JSON-ready, with its ``type``). Events name table seats
(1–10), never the hand's 0-based players.

>>> HoleCardDealt(5, 12, up=False).public, BoardDealt(12).as_dict()
(False, {'type': 'BoardDealt', 'card': 12})
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hub.rules.betting import ActionKind
from hub.rules.errors import TableSeat, seat_name
from hub.rules.pots import PotAward

__all__ = [
    "ActionTaken",
    "ActionUndone",
    "BoardDealt",
    "BurnDealt",
    "Discarded",
    "Event",
    "HandMucked",
    "HandShown",
    "HandVoided",
    "HoleCardDealt",
    "Payout",
    "PotAwarded",
    "pot_awarded",
]


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: _jsonable(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


class _EventBase:
    """Shared behaviour of events: ``public`` and ``as_dict``."""

    __slots__ = ()

    @property
    def public(self) -> bool:
        """True when the event may be shown to anyone (it carries no hole card)."""
        return True

    def as_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data, with its ``type``."""
        out: dict[str, Any] = {"type": type(self).__name__}
        out.update(_jsonable(self))
        return out


@dataclass(frozen=True, slots=True)
class HoleCardDealt(_EventBase):
    """A card to a seat (``card`` UNKNOWN when not read); public only when dealt face up."""

    seat: TableSeat
    card: int
    up: bool

    @property
    def public(self) -> bool:
        """Face-up stud cards are public, face-down cards are not."""
        return self.up


@dataclass(frozen=True, slots=True)
class BurnDealt(_EventBase):
    """A burn card (never public)."""

    card: int

    @property
    def public(self) -> bool:
        """Burn cards stay secret."""
        return False


@dataclass(frozen=True, slots=True)
class BoardDealt(_EventBase):
    """A board card (or the stud community card)."""

    card: int


@dataclass(frozen=True, slots=True)
class ActionTaken(_EventBase):
    """A betting action the hand accepted; ``source`` is ``console``, ``muck`` (cards to
    the muck in turn) or ``pending`` (an earlier fold out of turn taking effect)."""

    seat: TableSeat
    kind: ActionKind
    amount: int
    to: int
    all_in: bool
    source: str


@dataclass(frozen=True, slots=True)
class Discarded(_EventBase):
    """A seat's discards in a draw (how many; the cards are not public)."""

    seat: TableSeat
    count: int


@dataclass(frozen=True, slots=True)
class HandShown(_EventBase):
    """A hand shown at showdown (or by the uncalled winner): its cards are public now.
    ``whole`` False: the uncalled winner showed only ``cards`` and keeps the rest face
    down (R-SHOW-3)."""

    seat: TableSeat
    cards: tuple[int, ...]
    whole: bool = True


@dataclass(frozen=True, slots=True)
class HandMucked(_EventBase):
    """A hand mucked at showdown, unshown (no claim on any pot)."""

    seat: TableSeat


@dataclass(frozen=True, slots=True)
class Payout:
    """Chips one seat takes from one pot (``half``: whole, high or low)."""

    seat: TableSeat
    amount: int
    half: str
    odd_chip: bool


@dataclass(frozen=True, slots=True)
class PotAwarded(_EventBase):
    """How one pot is awarded, for the dealer to read out (``text``)."""

    pot: int
    amount: int
    eligible: tuple[int, ...]
    payouts: tuple[Payout, ...]
    uncontested: bool
    no_low: bool
    text: str


@dataclass(frozen=True, slots=True)
class HandVoided(_EventBase):
    """A misdeal: the hand is void; ``stacks`` are (seat, chips) as at its start."""

    stacks: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ActionUndone(_EventBase):
    """The last console action was taken back."""

    seat: TableSeat
    kind: ActionKind


Event = (
    HoleCardDealt
    | BurnDealt
    | BoardDealt
    | ActionTaken
    | Discarded
    | HandShown
    | HandMucked
    | PotAwarded
    | HandVoided
    | ActionUndone
)
"""Anything the monitor reports as having happened."""


def pot_awarded(award: PotAward, seats: Sequence[TableSeat]) -> PotAwarded:
    """The event of one pot's award, ``seats`` naming the hand's players at the table, with
    the sentence the dealer reads out.

    >>> from hub.rules.errors import TableSeat
    >>> from hub.rules.pots import Half, Share
    >>> award = PotAward(0, 30, (0, 1), (Share(1, 30, Half.WHOLE, False),), uncontested=False)
    >>> pot_awarded(award, (TableSeat(2), TableSeat(5))).text
    'main pot 30: seat 5 takes 30'
    """
    payouts = tuple(Payout(seats[s.seat], s.amount, s.half.value, s.odd_chip) for s in award.shares)
    name = "main pot" if award.pot == 0 else f"side pot {award.pot}"
    parts = []
    for p in payouts:
        extra = []
        if p.half != "whole":
            extra.append(p.half)
        if p.odd_chip:
            extra.append("odd chip")
        note = f" ({', '.join(extra)})" if extra else ""
        parts.append(f"{seat_name(p.seat)} takes {p.amount}{note}")
    text = f"{name} {award.amount}: " + "; ".join(parts)
    if award.no_low:
        text += " (no low hand qualifies)"
    return PotAwarded(
        award.pot,
        award.amount,
        tuple(seats[s] for s in award.eligible),
        payouts,
        award.uncontested,
        award.no_low,
        text,
    )
