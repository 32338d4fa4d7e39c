"""What a hand is in and what it leaves behind: its phases, forced bets, inputs and result.

:class:`Phase` says what the hand waits for; :class:`Post` is a forced bet posted when the
hand starts; :data:`Record` is any input a hand accepted (its :attr:`~hub.rules.hand.Hand.log`);
:class:`HandResult` is the end of the hand.

>>> Post(2, PostKind.BLIND, 20).kind.value, Phase.SHOWDOWN.value
('blind', 'showdown')

The records a hand makes on every input are ``NamedTuple``s (one per card or action; a
third of the cost of a frozen dataclass), made with :data:`new_record`. The enum members
tested on every input are module constants here (``DEALING`` for ``Phase.DEALING`` …):
on Python 3.11 an attribute of an enum class costs several times a global, because the
enum metaclass defines ``__getattr__``; the modules of the hand import them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import Deal, DealKind, Discard, Reshuffle, ShowOrMuck
from hub.rules.games import Evaluation, Family, Opening, Structure
from hub.rules.pots import Half, PotAward

__all__ = ["HandResult", "Phase", "Post", "PostKind", "Record", "new_record"]


class Phase(Enum):
    """What the hand waits for."""

    DEALING = "dealing"
    """Cards (burn, hole, board) are due: see :meth:`Hand.expected`."""
    DRAWING = "drawing"
    """Players discard in turn (:attr:`Hand.drawer`) and get replacement cards."""
    BETTING = "betting"
    """A betting round is open: :attr:`Hand.actor` is to act."""
    SHOWDOWN = "showdown"
    """Hands are shown or mucked: :attr:`Hand.shower` is next."""
    COMPLETE = "complete"
    """The pots are awarded: :attr:`Hand.result`."""


class PostKind(Enum):
    """A forced bet posted when the hand starts."""

    ANTE = "ante"
    BLIND = "blind"
    DEAD_BLIND = "dead blind"


class Post(NamedTuple):
    """A forced bet: ``amount`` may be less than asked when the seat is short (all in).
    (A ``NamedTuple``, like the other per-hand records, for speed.)"""

    seat: int
    kind: PostKind
    amount: int


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: each pot's award and the stacks afterwards."""

    awards: tuple[PotAward, ...]
    finishing_stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
    """Net result per seat (finishing minus starting stack)."""


Record = Deal | Discard | Action | ShowOrMuck | Reshuffle
"""Any input a hand accepted, as :attr:`Hand.log` holds it."""

new_record = tuple.__new__
"""``new_record(Deal, (kind, card, …))`` is ``Deal(kind, card, …)`` without the Python-level
``__new__`` of a ``NamedTuple`` (all fields given): the records made on every input."""

DEALING, DRAWING, BETTING = Phase.DEALING, Phase.DRAWING, Phase.BETTING
SHOWDOWN, COMPLETE = Phase.SHOWDOWN, Phase.COMPLETE
ANTE, BLIND, DEAD_BLIND = PostKind.ANTE, PostKind.BLIND, PostKind.DEAD_BLIND
HOLE, BURN, BOARD = DealKind.HOLE, DealKind.BURN, DealKind.BOARD
FOLD, CHECK, CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
BET, RAISE, BRING_IN = ActionKind.BET, ActionKind.RAISE, ActionKind.BRING_IN
COMPLETION = ActionKind.COMPLETE
FIXED_LIMIT, POT_LIMIT = Structure.FIXED_LIMIT, Structure.POT_LIMIT
STUD, DRAW = Family.STUD, Family.DRAW
BLINDS, POSITION = Opening.BLINDS, Opening.POSITION
STUD_OPENINGS = (Opening.LOW_CARD, Opening.HIGH_CARD)
WHOLE, HIGH, LOW = Half.WHOLE, Half.HIGH, Half.LOW
HIGH_HAND = Evaluation.HIGH
