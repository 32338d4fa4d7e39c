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
"""

from __future__ import annotations


class RulesError(ValueError):
    """An input the rules do not allow; ``rule`` names the rule id it breaks."""

    rule: str

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}")


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
