"""Alerts: what the dealer is told the moment something goes wrong at the table.

An alert is a value: a code, a severity, the seat involved (table seat number 1–10, or
None), the rule it cites, a short message a dealer understands and what to do about it.
An alert never names a hole card: messages talk about seats, counts and positions, and
only ever name cards that are face up for everyone (board, stud up cards) — the property
tests scan every alert for hole cards.

>>> a = Alert(AlertCode.MISSING_BURN, Severity.WARNING, None, "R-DEAL-2",
...           "the flop came without a burn", "burn a card before the turn")
>>> a.as_dict()["code"]
'missing_burn'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Severity(enum.Enum):
    """How bad it is: ``info`` (noted), ``warning`` (fix it now), ``misdeal`` (hand void)."""

    INFO = "info"
    WARNING = "warning"
    MISDEAL = "misdeal"


class AlertCode(enum.Enum):
    """Every kind of alert the table raises (issue #4's list)."""

    DEAL_OUT_OF_ORDER = "deal_out_of_order"
    """A hole card not starting left of the button, not clockwise, or not one at a time."""
    WRONG_CARD_COUNT = "wrong_card_count"
    """A seat got more or fewer cards than the game gives."""
    CARD_TO_EMPTY_SEAT = "card_to_empty_seat"
    """A card landed on an empty or sitting-out seat."""
    MISSING_BURN = "missing_burn"
    EXTRA_BURN = "extra_burn"
    PREMATURE_BOARD_CARD = "premature_board_card"
    """A board card before the betting round ended (R-DEAL-7)."""
    DUPLICATE_CARD = "duplicate_card"
    """One card seen in two places, or two tags that map to one card."""
    UNKNOWN_TAG = "unknown_tag"
    """A tag that is not in the registered deck."""
    CARDS_LEFT_SEAT = "cards_left_seat"
    """A live player's cards left the seat without a fold."""
    FOLD_OUT_OF_TURN = "fold_out_of_turn"
    """A live player's cards reached the muck when it was not their turn."""
    ACTION_OUT_OF_TURN = "action_out_of_turn"
    """An action entered at the console for a seat whose turn it is not (R-BET-10)."""
    FOLDED_CARD_RETURNED = "folded_card_returned"
    """A folded player's card came back to a seat or the board."""
    STUD_CARD_WRONG_PLACE = "stud_card_wrong_place"
    """A stud up card on the down antenna or a down card on the up antenna."""
    DRAW_MISMATCH = "draw_mismatch"
    """Draw replacements that do not match the discards in number."""
    WINNING_HAND_MUCKED = "winning_hand_mucked"
    """At showdown, the best hand went to the muck before it was read."""
    MISDEAL_DECLARED = "misdeal_declared"
    """The dealer declared a misdeal: the hand is void, chips go back."""


@dataclass(frozen=True, slots=True)
class Alert:
    """One thing for the dealer to act on."""

    code: AlertCode
    severity: Severity
    seat: int | None
    rule: str
    message: str
    remedy: str

    def as_dict(self) -> dict[str, Any]:
        """The alert as JSON-ready data (for the alert topic and the console)."""
        return {
            "code": self.code.value,
            "severity": self.severity.value,
            "seat": self.seat,
            "rule": self.rule,
            "message": self.message,
            "remedy": self.remedy,
        }
