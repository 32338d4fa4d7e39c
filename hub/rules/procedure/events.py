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

from feltwire.cards import CardIndex
from feltwire.text import Seat, Text
from hub.messages.vocabulary import joined
from hub.rules.betting import ActionKind
from hub.rules.errors import TableSeat
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
    if isinstance(value, Text):
        return value.as_json()
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
    card: CardIndex
    up: bool

    @property
    def public(self) -> bool:
        """Face-up stud cards are public, face-down cards are not."""
        return self.up


@dataclass(frozen=True, slots=True)
class BurnDealt(_EventBase):
    """A burn card (never public)."""

    card: CardIndex

    @property
    def public(self) -> bool:
        """Burn cards stay secret."""
        return False


@dataclass(frozen=True, slots=True)
class BoardDealt(_EventBase):
    """A board card (or the stud community card)."""

    card: CardIndex


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
    cards: tuple[CardIndex, ...]
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
    """How one pot is awarded; ``text`` is what the dealer reads out, as an
    ``award.line.*`` entry of the message catalog."""

    pot: int
    amount: int
    eligible: tuple[int, ...]
    payouts: tuple[Payout, ...]
    uncontested: bool
    no_low: bool
    text: Text


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
    the text the dealer reads out (``award.line.*``: the pot, its amount, each share).

    >>> from hub.messages import render
    >>> from hub.rules.errors import TableSeat
    >>> from hub.rules.pots import Half, Share
    >>> award = PotAward(0, 30, (0, 1), (Share(1, 30, Half.WHOLE, False),), uncontested=False)
    >>> event = pot_awarded(award, (TableSeat(2), TableSeat(5)))
    >>> event.text.key, render(event.text), render(event.text, "cs")
    ('award.line.plain', 'main pot 30: seat 5 takes 30', 'hlavní bank 30: místo 5 bere 30')
    """
    payouts = tuple(Payout(seats[s.seat], s.amount, s.half.value, s.odd_chip) for s in award.shares)
    name = Text("award.pot.main") if award.pot == 0 else Text("award.pot.side", {"pot": award.pot})
    text = Text(
        "award.line.no_low" if award.no_low else "award.line.plain",
        {
            "pot_name": name,
            "amount": award.amount,
            "shares": joined([_share(p) for p in payouts], "list.semicolon"),
        },
    )
    return PotAwarded(
        award.pot,
        award.amount,
        tuple(seats[s] for s in award.eligible),
        payouts,
        award.uncontested,
        award.no_low,
        text,
    )


_SHARE_KEYS = {
    (False, False): "award.share.plain",
    (False, True): "award.share.odd_chip",
    (True, False): "award.share.half",
    (True, True): "award.share.half_odd_chip",
}
"""A share's key by (a half of a hi-lo pot, with the odd chip)."""


def _share(p: Payout) -> Text:
    """One payout as an ``award.share.*`` text: the seat, its chips, the half, the odd chip."""
    params: dict[str, int | Seat | Text] = {"seat": Seat(p.seat), "amount": p.amount}
    half = p.half != "whole"
    if half:
        params["half"] = Text(f"half.{p.half}")
    return Text(_SHARE_KEYS[half, p.odd_chip], params)
