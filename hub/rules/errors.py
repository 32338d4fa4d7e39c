"""Errors of the hand engine: one root, typed subclasses, every message names its rule.

Every error raised by :mod:`hub.rules` is a :class:`RulesError`, which is also a
:class:`ValueError`. Its ``rule`` attribute holds the rule id from ``RULES.md`` (or
``"PHH"`` for a malformed hand-history file) and its message starts with that id, so a
dealer console can show it as it is:

>>> err = BetSizeError("R-BET-2", "a raise must be at least 40 (the last raise); 30 is too small")
>>> str(err)
'R-BET-2: a raise must be at least 40 (the last raise); 30 is too small'
>>> err.rule, isinstance(err, ValueError)
('R-BET-2', True)

Two numberings of seats meet here, and they are different types so that one is never
shown as the other. The engine numbers the players of a hand 0, 1, … clockwise from the
first seat left of the button (:data:`HandSeat`); people number them differently — a
table by its seat numbers 1–10 (:data:`TableSeat`), a PHH file as ``p1 … pN``. An error
names a hand's player with :func:`who`, and whoever shows the message renders it in the
reader's numbering with :meth:`RulesError.render`; ``str()`` uses the PHH numbering:

>>> err = OutOfTurnError("R-BET-10", f"{who(1)} acted out of turn; {who(2)} is to act")
>>> str(err)
'R-BET-10: p2 acted out of turn; p3 is to act'
>>> err.render(lambda h: f"seat {(2, 5, 7)[h]}")
'R-BET-10: seat 5 acted out of turn; seat 7 is to act'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NewType

HandSeat = NewType("HandSeat", int)
"""A player of one hand as the engine numbers them: 0-based, clockwise from the first
seat left of the button (in stud, left of the dealer). Never shown to a person."""

TableSeat = NewType("TableSeat", int)
"""A seat as the table numbers it (1–10): what the dealer, the console and the pages say."""

SeatNamer = Callable[[HandSeat], str]
"""Names a hand's player in the reader's numbering (``"seat 5"``, ``"p2"``)."""

_REF = re.compile("\x1e(\\d+)\x1f")


def who(h: HandSeat | int | None) -> str:
    """A hand's player named in an error message; rendered later by the reader's namer."""
    return "nobody" if h is None else f"\x1e{int(h)}\x1f"


def phh_name(h: HandSeat) -> str:
    """The PHH numbering: the first player of the hand is ``p1``."""
    return f"p{h + 1}"


def seat_name(t: TableSeat) -> str:
    """A table seat as people say it: ``seat 5``."""
    return f"seat {t}"


def render_seats(text: str, name: SeatNamer) -> str:
    """``text`` with every player named by :func:`who` named by ``name``."""
    if "\x1e" not in text:
        return text
    return _REF.sub(lambda m: name(HandSeat(int(m[1]))), text)


class RulesError(ValueError):
    """An input the rules do not allow; ``rule`` names the rule id it breaks."""

    rule: str
    template: str
    """The message with the players named by :func:`who` still unrendered."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.template = f"{rule}: {message}"
        super().__init__(render_seats(self.template, phh_name))

    def render(self, name: SeatNamer) -> str:
        """The message with each player named in the reader's numbering."""
        return render_seats(self.template, name)


class ConfigurationError(RulesError):
    """A hand that cannot be set up: wrong number of seats, stakes that do not fit the game."""


class PhaseError(RulesError):
    """An input that does not fit the moment: betting while cards are due, a card after the end."""


class OutOfTurnError(RulesError):
    """A seat acted, discarded or showed when it was another seat's turn (R-BET-10)."""


class IllegalActionError(RulesError):
    """An action the seat may not take now: check facing a bet, raise when not reopened."""


class BetSizeError(IllegalActionError):
    """A bet or raise of the wrong size: below the minimum, above the limit, not the fixed size."""


class DealingError(RulesError):
    """A card input that breaks the dealing rules (wrong seat, too many cards, missing burn)."""


class DuplicateCardError(DealingError):
    """A card that is already somewhere else: every card exists once (R-CARD-1)."""


class MisdealError(DealingError):
    """A dealing fault that voids the hand under R-DEAL-6 (strict dealing only)."""


class ShowdownError(RulesError):
    """A show or muck out of order, by a seat not in the showdown, or with the wrong cards."""


class HandHistoryError(RulesError):
    """A PHH file that cannot be read or written (rule id ``"PHH"``)."""

    def __init__(self, message: str) -> None:
        super().__init__("PHH", message)
