"""Alerts: what the dealer is told the moment something goes wrong at the table.

An alert is a value: a code, a severity, the seat involved (table seat number 1–10, or
None), the rule it cites, what happened and what to do about it. The last two are
:class:`~feltwire.text.Text` values — a key of the message catalog
(``alert.<code>.….message`` / ``….remedy``, see :mod:`hub.messages.keys`) and its
parameters (table seats as :class:`~feltwire.text.Seat`, streets and antennas as nested
texts, counts as ints) — so the rules core writes no sentence: whoever shows the alert
renders it in the reader's language (``hub.messages.render``, the pages' ``i18n.js``).
An alert never names a hole card: its parameters are seats, counts, streets and antennas
— the property tests scan every alert for hole cards.

>>> from hub.messages import render, street
>>> a = Alert(AlertCode.MISSING_BURN, Severity.WARNING, None, "R-DEAL-2",
...           Text("alert.missing_burn.message", {"street": street("flop")}),
...           Text("alert.missing_burn.remedy"))
>>> a.as_dict()["code"], render(a.text)
('missing_burn', 'the flop came without a burn card')
>>> a.as_dict()["text"]
{'key': 'alert.missing_burn.message', 'params': {'street': {'key': 'street.flop', 'params': {}}}}
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from feltwire.text import Text


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
    text: Text
    """What happened: an ``alert.<code>.….message`` entry of the catalog, with its
    parameters."""
    remedy: Text
    """What the dealer does about it: an ``alert.<code>.….remedy`` entry."""

    def as_dict(self) -> dict[str, Any]:
        """The alert as JSON-ready data: its code, severity, seat and rule, and its texts
        as ``text`` / ``remedy_text`` (``{"key", "params"}``; the English sentences are
        added where frames are built, :func:`hub.views.alerts.rules_alert_frame`)."""
        return {
            "code": self.code.value,
            "severity": self.severity.value,
            "seat": self.seat,
            "rule": self.rule,
            "text": self.text.as_json(),
            "remedy_text": self.remedy.as_json(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Alert:
        """The alert :meth:`as_dict` made (a table snapshot holds them so).

        >>> a = Alert(AlertCode.UNKNOWN_TAG, Severity.WARNING, 3, "R-X", Text("a.b"), Text("c.d"))
        >>> Alert.from_dict(a.as_dict()) == a
        True
        """
        seat = data["seat"]
        return cls(
            AlertCode(data["code"]),
            Severity(data["severity"]),
            None if seat is None else int(seat),
            str(data["rule"]),
            Text.from_json(data["text"]),
            Text.from_json(data["remedy_text"]),
        )
