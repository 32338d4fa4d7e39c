"""Errors of the hand engine: one root, typed subclasses, every reason a catalog text.

Every error raised by :mod:`hub.rules` is a :class:`RulesError`, which is also a
:class:`ValueError`. Its ``rule`` attribute holds the rule id from ``RULES.md`` (or
``"PHH"`` for a malformed hand-history file) and its ``text`` the reason, as a
:class:`~feltwire.text.Text` of the message catalog (``hub/messages/catalog``): a key and
its parameters, never a card a person must not see. ``str(err)`` is the English sentence
``refusal.ruled`` — the rule id, then the reason:

>>> err = BetSizeError("R-BET-2", Text("refusal.bet_size.below_min_bet", {"minimum": 20, "to": 10}))
>>> str(err)
'R-BET-2: a bet must be at least 20 (one big blind); 10 is too small'
>>> err.rule, err.text.key, isinstance(err, ValueError)
('R-BET-2', 'refusal.bet_size.below_min_bet', True)

Two numberings of seats meet here, and they are different types so that one is never
shown as the other. The engine numbers the players of a hand 0, 1, … clockwise from the
first seat left of the button (:data:`HandSeat`); people number them differently — a
table by its seat numbers 1–10 (:data:`TableSeat`), a PHH file as ``p1 … pN``. A reason
names a hand's player as a :class:`~feltwire.text.Player`; ``str()`` renders it in the
PHH numbering, and a table asks :meth:`RulesError.text_for` for the text with every
player named by its seat (:class:`~feltwire.text.Seat`), to render in either language:

>>> from hub.messages import render
>>> err = OutOfTurnError("R-BET-10", Text("refusal.out_of_turn.acted",
...                                       {"seat": Player(1), "actor": Player(2)}))
>>> str(err)
'R-BET-10: p2 acted out of turn; p3 is to act'
>>> render(err.text_for(lambda h: TableSeat((2, 5, 7)[h])), "cs")
'R-BET-10: místo 5 jedná mimo pořadí; na řadě je místo 7'
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Final, NewType, Self

from feltwire.errors import FeltwireError
from feltwire.text import Player, Seat, Text
from hub.messages import render

__all__ = [
    "RULED",
    "BetSizeError",
    "ConfigurationError",
    "DealingError",
    "DuplicateCardError",
    "HandHistoryError",
    "HandSeat",
    "IllegalActionError",
    "MisdealError",
    "OutOfTurnError",
    "PhaseError",
    "RulesError",
    "SeatNamer",
    "SeatOf",
    "ShowdownError",
    "TableSeat",
    "phh_name",
    "seat_name",
]

HandSeat = NewType("HandSeat", int)
"""A player of one hand as the engine numbers them: 0-based, clockwise from the first
seat left of the button (in stud, left of the dealer). Never shown to a person."""

TableSeat = NewType("TableSeat", int)
"""A seat as the table numbers it (1–10): what the dealer, the console and the pages say."""

SeatNamer = Callable[[HandSeat], str]
"""Names a hand's player in the reader's numbering (``"seat 5"``, ``"p2"``)."""

SeatOf = Callable[[HandSeat], "TableSeat | None"]
"""The table seat of a hand's player (None for an index the hand has no player for)."""

RULED: Final = "refusal.ruled"
"""The catalog key of a refusal as a person reads it: ``{rule}: {reason}``."""


def phh_name(h: HandSeat) -> str:
    """The PHH numbering: the first player of the hand is ``p1``."""
    return f"p{h + 1}"


def seat_name(t: TableSeat) -> str:
    """A table seat as people say it: ``seat 5``."""
    return f"seat {t}"


class RulesError(FeltwireError, ValueError):
    """An input the rules do not allow: ``rule`` names the rule id it breaks, ``text``
    says why (a catalog text whose players are :class:`~feltwire.text.Player` s)."""

    rule: str
    text: Text

    def __init__(self, rule: str, text: Text) -> None:
        super().__init__(rule, text)
        self.rule = rule
        self.text = text

    @property
    def ruled(self) -> Text:
        """The whole refusal, ``refusal.ruled {rule, reason}``, players as the hand's."""
        return Text(RULED, {"rule": self.rule, "reason": self.text})

    def __str__(self) -> str:
        return render(self.ruled, "en")

    def text_for(self, seat_of: SeatOf) -> Text:
        """The whole refusal with each player named by its table seat (``seat_of``): what
        a table shows. A player ``seat_of`` has no seat for stays a player."""

        def name(p: Player) -> Player | Seat:
            t = seat_of(HandSeat(p.index))
            return p if t is None else Seat(t)

        return self.ruled.with_players(name)

    def render_en(self, seat_of: SeatOf) -> str:
        """:meth:`text_for` as an English sentence (logs, and clients that read English)."""
        return render(self.text_for(seat_of), "en")

    def reworded(self, text: Text) -> Self:
        """The same error (its class and rule) with ``text`` as its reason."""
        new = copy.copy(self)
        new.text = text
        new.args = (self.rule, text)
        return new

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.rule, self.text))


def _rebuild(cls: type[RulesError], rule: str, text: Text) -> RulesError:
    err = cls.__new__(cls)
    RulesError.__init__(err, rule, text)
    return err


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

    def __init__(self, text: Text) -> None:
        super().__init__("PHH", text)
