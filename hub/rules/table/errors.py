"""Errors of the table layer: :class:`TableError` and its kinds, each a
:class:`~hub.rules.errors.RulesError` (and so a :class:`ValueError`) whose message starts
with the rule it names (the reason a catalog text, as every RulesError's).

>>> from feltwire.text import Seat, Text
>>> err = SeatError("R-POS-1", Text("refusal.seat.empty", {"seat": Seat(4)}))
>>> str(err), isinstance(err, RulesError), isinstance(err, ValueError)
('R-POS-1: seat 4 is empty', True, True)
"""

from __future__ import annotations

from hub.rules.errors import RulesError

__all__ = [
    "BuyInError",
    "HandInProgressError",
    "NotEnoughPlayersError",
    "SeatError",
    "TableError",
]


class TableError(RulesError):
    """A table operation the rules do not allow; ``rule`` names the rule id."""


class SeatError(TableError):
    """A seat that does not exist, is taken, is empty, or a player seated twice."""


class BuyInError(TableError):
    """A buy-in or top-up outside the limits (R-BUY-1…4) or not in whole chips (R-BUY-6)."""


class HandInProgressError(TableError):
    """Something that must wait for the hand to end (table stakes, R-BUY-5), or a hand
    operation when no hand is running."""


class NotEnoughPlayersError(TableError):
    """Fewer than two players can be dealt in (R-POS-2)."""
